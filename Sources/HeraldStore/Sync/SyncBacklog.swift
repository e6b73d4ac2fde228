import Glibc

/// Other devices' operations gathered before they are written: only the winner of each key
/// is kept, so a key flipped many times in a device's files is written once.
///
/// A device's files are merged in one transaction, so its backlog can be gathered whole (up
/// to a limit of keys) and then written in the state's key order (feed URL, guid, kind): the
/// B-tree is walked from one end to the other, each page read and written once while it is
/// in the page cache, instead of each key seeking a page anywhere in the state.
///
/// Records are taken as bytes (the sync file's fields): guids and values are copied into one
/// buffer and found again through a hash table of their own, each feed URL is kept once, so a
/// key costs about 100 bytes and no allocation of its own.
public struct SyncBacklog: Sendable {
    /// A key's winner so far. Its guid and value are ranges of `bytes`.
    private struct Entry {
        var hash: Int
        var stamp: Int64
        var guid: Int32
        var guidLength: Int32
        var value: Int32
        var valueLength: Int32
        /// The bytes reserved for the value: a new winner's value is written over the last
        /// one when it fits, so a key flipped a million times does not grow `bytes`.
        var valueCapacity: Int32
        var feed: Int32
        var device: Int32
        var kind: SyncChange.Kind
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Open addressing over `entries`: a slot holds an entry's place + 1, 0 when empty.
    private var slots = [Int32](repeating: 0, count: 1 << 12)
    private var feeds = ByteStrings()
    private var devices: [String] = []
    /// The entries' places in key order, once sorted (nil: not sorted, or added to since).
    private var order: [Int32]?

    public init() {}

    /// A backlog that will gather up to `keys` keys: its storage is reserved at once, not
    /// doubled as it fills (each doubling copies it, and the copy it leaves behind stays in
    /// the process's memory). Untouched reserved pages cost no memory.
    public init(reservingCapacity keys: Int) {
        entries.reserveCapacity(keys)
        bytes.reserveCapacity(keys * 64)
    }

    /// How many keys have a winner waiting.
    public var count: Int { entries.count }

    /// The bytes of the guids and values kept (their offsets are 32-bit: a backlog is
    /// written long before 2 GiB).
    public var byteCount: Int { bytes.count }

    /// Keeps `operation` if it wins over the waiting one of its key.
    public mutating func add(_ operation: SyncOperation) {
        var (url, guid, value) = (operation.change.feedURL, operation.change.guid, operation.change.value)
        url.withUTF8 { url in
            guid.withUTF8 { guid in
                value.withUTF8 { value in
                    add(
                        stamp: operation.stamp, kind: operation.change.kind,
                        value: UnsafeRawBufferPointer(value),
                        feedURL: UnsafeRawBufferPointer(url), guid: UnsafeRawBufferPointer(guid),
                        device: operation.device)
                }
            }
        }
    }

    public mutating func add(contentsOf operations: some Sequence<SyncOperation>) {
        for operation in operations { add(operation) }
    }

    /// Keeps an operation, given by the bytes of its fields, if it wins over the waiting one
    /// of its key: the greater (stamp, device); of two equal, the first, as the state keeps
    /// the one it has. One whose value is no state of its kind (`Kind.accepts`: a flag of
    /// "maybe") is never kept, so it can neither win over a good one nor be applied.
    public mutating func add(
        stamp: Int64, kind: SyncChange.Kind, value: UnsafeRawBufferPointer, feedURL: UnsafeRawBufferPointer,
        guid: UnsafeRawBufferPointer, device: String
    ) {
        guard kind.accepts(value) else { return }
        order = nil
        let feed = feeds.place(of: feedURL)
        let deviceIndex: Int32
        if let last = devices.last, last == device {
            deviceIndex = Int32(devices.count - 1)
        } else if let known = devices.firstIndex(of: device) {
            deviceIndex = Int32(known)
        } else {
            deviceIndex = Int32(devices.count)
            devices.append(device)
        }
        var hasher = Hasher()
        hasher.combine(feed)
        hasher.combine(kind)
        hasher.combine(bytes: guid)
        let hash = hasher.finalize()
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let place = Int(slots[slot] - 1)
            let entry = entries[place]
            if entry.hash == hash, entry.feed == feed, entry.kind == kind,
                matches(entry.guid, entry.guidLength, guid)
            {
                let wins =
                    stamp > entry.stamp || (stamp == entry.stamp && device > devices[Int(entry.device)])
                if wins {
                    entries[place].stamp = stamp
                    entries[place].device = deviceIndex
                    if value.count <= entry.valueCapacity {
                        let start = Int(entry.value)
                        bytes.withUnsafeMutableBytes { all in
                            UnsafeMutableRawBufferPointer(rebasing: all[start..<start + value.count])
                                .copyMemory(
                                    from: value)
                        }
                        entries[place].valueLength = Int32(value.count)
                    } else {
                        (entries[place].value, entries[place].valueLength) = append(value)
                        entries[place].valueCapacity = Int32(value.count)
                    }
                }
                return
            }
            slot = (slot + 1) & mask
        }
        let (guidStart, guidLength) = append(guid)
        let (valueStart, valueLength) = append(value)
        entries.append(
            Entry(
                hash: hash, stamp: stamp, guid: guidStart, guidLength: guidLength, value: valueStart,
                valueLength: valueLength, valueCapacity: valueLength, feed: feed, device: deviceIndex,
                kind: kind))
        slots[slot] = Int32(entries.count)
        if entries.count * 2 > slots.count { grow() }
    }

    private func matches(_ start: Int32, _ length: Int32, _ other: UnsafeRawBufferPointer) -> Bool {
        guard Int(length) == other.count else { return false }
        return bytes.withUnsafeBytes { all in
            other.count == 0 || memcmp(all.baseAddress! + Int(start), other.baseAddress!, other.count) == 0
        }
    }

    private mutating func append(_ field: UnsafeRawBufferPointer) -> (Int32, Int32) {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: field)
        return (start, Int32(field.count))
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (place, entry) in entries.enumerated() {
            var slot = entry.hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(place + 1)
        }
    }

    /// Puts the winners in the state's key order now, so `drain` does not: a backlog is
    /// sorted on the thread that gathers it while the database writes the one before.
    /// Adding to it afterwards undoes the order.
    public mutating func sortForWriting() {
        order = keyOrder()
    }

    /// Hands every winner to `body` (kind, feed URL, guid and value bytes, stamp, device) in
    /// the state's key order (feed URL, guid, kind, by their bytes), then empties the backlog.
    mutating func drain(
        _ body: (
            _ kind: SyncChange.Kind, _ feedURL: UnsafeRawBufferPointer, _ guid: UnsafeRawBufferPointer,
            _ value: UnsafeRawBufferPointer, _ stamp: Int64, _ device: String
        ) throws -> Void
    ) rethrows {
        let order = order ?? keyOrder()
        defer { self = SyncBacklog() }
        try bytes.withUnsafeBytes { all in
            for place in order {
                let entry = entries[Int(place)]
                try feeds.withBytes(of: Int(entry.feed)) { url in
                    try body(
                        entry.kind, url,
                        UnsafeRawBufferPointer(
                            rebasing: all[Int(entry.guid)..<Int(entry.guid + entry.guidLength)]),
                        UnsafeRawBufferPointer(
                            rebasing: all[Int(entry.value)..<Int(entry.value + entry.valueLength)]),
                        entry.stamp, devices[Int(entry.device)])
                }
            }
        }
    }

    /// How many of the first `limit` bytes at offsets `a` and `b` of `base` are equal.
    private static func sharedLength(_ base: UnsafeRawPointer?, _ a: Int, _ b: Int, _ limit: Int) -> Int {
        guard limit > 0, let base else { return 0 }
        var length = 0
        while length < limit,
            base.load(fromByteOffset: a + length, as: UInt8.self)
                == base.load(fromByteOffset: b + length, as: UInt8.self)
        {
            length += 1
        }
        return length
    }

    /// Up to 8 bytes at offset `at` of `base` (`count` there) as a big-endian number, zeros
    /// after the end: numbers in order are byte strings in order (a shorter string that
    /// starts a longer one is before it), and equal numbers say nothing.
    private static func prefix(_ base: UnsafeRawPointer?, at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 {
            value <<= 8
            if index < count, let base {
                value |= UInt64(base.load(fromByteOffset: offset + index, as: UInt8.self))
            }
        }
        return value
    }

    /// The places of the entries in the state's key order: by feed URL, then guid, then kind.
    private func keyOrder() -> [Int32] {
        let ranks = feeds.sortedPlaces()
        var rankOfFeed = [Int](repeating: 0, count: ranks.count)
        for (rank, feed) in ranks.enumerated() { rankOfFeed[feed] = rank }
        var starts = [Int](repeating: 0, count: ranks.count + 1)
        for entry in entries { starts[rankOfFeed[Int(entry.feed)] + 1] += 1 }
        for rank in ranks.indices { starts[rank + 1] += starts[rank] }
        var order = [Int32](repeating: 0, count: entries.count)
        for (place, entry) in entries.enumerated() {
            let rank = rankOfFeed[Int(entry.feed)]
            order[starts[rank]] = Int32(place)
            starts[rank] += 1
        }
        bytes.withUnsafeBytes { all in
            // Within a feed, by guid then kind, as the state's key (each `starts[rank]` is now
            // the end of its feed's keys). A feed's guids share a long start (its address):
            // each is sorted on the 8 bytes after that first, the whole of it only on a tie.
            // Nil when no guid or value has a byte: nothing is then read through it.
            let base = all.baseAddress
            var start = 0
            var sorting: [(prefix: UInt64, place: Int32)] = []
            for rank in ranks.indices {
                let range = start..<starts[rank]
                start = starts[rank]
                guard range.count > 1 else { continue }
                let first = entries[Int(order[range.lowerBound])]
                var shared = Int(first.guidLength)
                for index in range {
                    let entry = entries[Int(order[index])]
                    shared = Self.sharedLength(
                        base, Int(first.guid), Int(entry.guid), min(shared, Int(entry.guidLength)))
                }
                sorting.removeAll(keepingCapacity: true)
                for index in range {
                    let entry = entries[Int(order[index])]
                    let prefix = Self.prefix(
                        base, at: Int(entry.guid) + shared, count: Int(entry.guidLength) - shared)
                    sorting.append((prefix, order[index]))
                }
                sorting.sort { a, b in
                    if a.prefix != b.prefix { return a.prefix < b.prefix }
                    let (x, y) = (entries[Int(a.place)], entries[Int(b.place)])
                    let common = Int(min(x.guidLength, y.guidLength))
                    let order = common == 0 ? 0 : memcmp(base! + Int(x.guid), base! + Int(y.guid), common)
                    if order != 0 { return order < 0 }
                    if x.guidLength != y.guidLength { return x.guidLength < y.guidLength }
                    return x.kind.rawValue < y.kind.rawValue
                }
                for (offset, item) in sorting.enumerated() { order[range.lowerBound + offset] = item.place }
            }
        }
        return order
    }
}

/// Byte strings kept once each, found by their bytes (a backlog's feed URLs).
private struct ByteStrings {
    private var bytes: [UInt8] = []
    private var ranges: [(hash: Int, start: Int, count: Int)] = []
    private var slots = [Int32](repeating: 0, count: 1 << 10)

    /// The place of `string`, added if it is new.
    mutating func place(of string: UnsafeRawBufferPointer) -> Int32 {
        var hasher = Hasher()
        hasher.combine(bytes: string)
        let hash = hasher.finalize()
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let place = Int(slots[slot] - 1)
            let range = ranges[place]
            if range.hash == hash, range.count == string.count,
                bytes.withUnsafeBytes({ all in
                    string.count == 0
                        || memcmp(all.baseAddress! + range.start, string.baseAddress!, string.count) == 0
                })
            {
                return Int32(place)
            }
            slot = (slot + 1) & mask
        }
        ranges.append((hash, bytes.count, string.count))
        bytes.append(contentsOf: string)
        slots[slot] = Int32(ranges.count)
        if ranges.count * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            let mask = slots.count - 1
            for (place, range) in ranges.enumerated() {
                var slot = range.hash & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(place + 1)
            }
        }
        return Int32(ranges.count - 1)
    }

    func withBytes<T>(of place: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let range = ranges[place]
        return try bytes.withUnsafeBytes {
            try body(UnsafeRawBufferPointer(rebasing: $0[range.start..<range.start + range.count]))
        }
    }

    /// The places, ordered by their bytes (as SQLite's BINARY collation orders text).
    func sortedPlaces() -> [Int] {
        bytes.withUnsafeBytes { all in
            ranges.indices.sorted { a, b in
                let (x, y) = (ranges[a], ranges[b])
                let common = min(x.count, y.count)
                let order =
                    common == 0 ? 0 : memcmp(all.baseAddress! + x.start, all.baseAddress! + y.start, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }
}
