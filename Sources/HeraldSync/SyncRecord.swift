import CZlib
public import HeraldStore

/// One line of a sync file: `CRC STAMP\tKIND\tVALUE\tFEED-URL\tGUID\n`.
///
/// `CRC` is the CRC-32 (zlib) of everything after it and its space, up to the newline, in
/// eight hex digits; `STAMP` is `MILLISECONDS.COUNTER`. A tab, newline, carriage return or
/// percent sign in a field is written `%09`, `%0A`, `%0D`, `%25`, so a record is one line
/// whatever the feed's URL or guid holds. A snapshot ends with a record of kind `end` whose
/// value is how many records precede it: a snapshot without it was cut short.
public enum SyncRecord {
    /// The first line of every file, with its format version.
    public static let magic = "herald-sync"
    public static let version = 1
    public static var header: String { "\(magic) \(version)\n" }

    /// The header of segment N, with the bytes of segment N-1 (`after=BYTES`; 0: there was
    /// none): a reader leaves N-1 for N only once its copy of N-1 holds that many, since a
    /// copy cut at the end of a line looks complete. A Herald that reads only the first two
    /// words of the header reads these files alike.
    public static func header(previousSegmentBytes bytes: Int?) -> String {
        bytes.map { "\(magic) \(version) after=\($0)\n" } ?? header
    }

    /// The bytes of the previous segment given by a header line (without its newline); nil
    /// when it gives none (a segment written by an older Herald, or a snapshot).
    static func previousSegmentBytes(header line: some Collection<UInt8>) -> Int? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count >= 3, words[2].hasPrefix("after=") else { return nil }
        return Int(words[2].dropFirst(6))
    }
    static let endKind = "end"

    /// The longest line a reader takes (1 MiB; a record holds a feed's address of at most
    /// 4 KiB, a guid and a title or tags): a longer one is skipped unread, so a file without
    /// newlines costs one pass, never memory of its size. No line this long is written.
    public static let maximumLineBytes = 1 << 20

    /// A decoded line.
    public enum Line: Sendable, Hashable {
        case operation(stamp: Int64, change: SyncChange)
        /// A snapshot's last line, with the count of records before it.
        case end(count: Int)
    }

    /// Why a complete line was not taken.
    public enum Problem: Error, Sendable, Hashable {
        case checksum
        case malformed(String)
    }

    public static func encode(stamp: Int64, change: SyncChange) -> String {
        line(stamp: stamp, fields: [change.kind.rawValue, change.value, change.feedURL, change.guid])
    }

    public static func encodeEnd(count: Int, stamp: Int64) -> String {
        line(stamp: stamp, fields: [endKind, String(count), "", ""])
    }

    private static func line(stamp: Int64, fields: [String]) -> String {
        let stampText = "\(HybridClock.milliseconds(stamp)).\(HybridClock.counter(stamp))"
        let body = ([stampText] + fields.map(escape)).joined(separator: "\t")
        var bytes = Array(body.utf8)
        let crc = checksum(&bytes)
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + " " + body + "\n"
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return UInt32(crc32(0, nil, 0)) }
        return UInt32(crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    private static func checksum(_ bytes: inout [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 37 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t": out += "%09"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            case "%": out += "%25"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Decodes one line without its newline.
    public static func decode(_ line: UnsafeRawBufferPointer) -> Result<Line, Problem> {
        switch fields(line) {
        case .failure(let problem): .failure(problem)
        case .success(.end(let count)): .success(.end(count: count))
        case .success(.operation(let stamp, let kind, let value, let url, let guid)):
            if let value = unescape(value), let url = unescape(url), let guid = unescape(guid) {
                .success(
                    .operation(
                        stamp: stamp,
                        change: SyncChange(
                            kind: kind, feedURL: String(decoding: url, as: UTF8.self),
                            guid: String(decoding: guid, as: UTF8.self),
                            value: String(decoding: value, as: UTF8.self))
                    ))
            } else {
                .failure(.malformed("bad escape"))
            }
        }
    }

    /// A checked line whose fields are still the line's bytes (valid while the line is).
    enum Fields {
        /// Value, feed URL and guid as written, escapes and all (`unescape` them).
        case operation(
            stamp: Int64, kind: SyncChange.Kind, value: UnsafeRawBufferPointer,
            feedURL: UnsafeRawBufferPointer,
            guid: UnsafeRawBufferPointer)
        case end(count: Int)
    }

    /// Checks one line without its newline (checksum, fields, stamp, kind) and finds its
    /// fields, making no string: merging reads a million of them.
    static func fields(_ line: UnsafeRawBufferPointer) -> Result<Fields, Problem> {
        let bytes = line.bindMemory(to: UInt8.self)
        guard bytes.count > 9, bytes[8] == 32, let expected = hexValue(bytes[0..<8]) else {
            return .failure(.malformed("no checksum"))
        }
        let body = UnsafeRawBufferPointer(rebasing: line[9...])
        guard checksum(body) == expected else { return .failure(.checksum) }
        // The four tabs, found on the bytes: no array per record.
        var tabs = (0, 0, 0, 0)
        var tabCount = 0
        for index in 9..<bytes.count where bytes[index] == 9 {
            switch tabCount {
            case 0: tabs.0 = index
            case 1: tabs.1 = index
            case 2: tabs.2 = index
            case 3: tabs.3 = index
            default: break
            }
            tabCount += 1
        }
        guard tabCount == 4 else { return .failure(.malformed("\(tabCount + 1) fields, not 5")) }
        func field(_ range: Range<Int>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: line[range])
        }
        guard let stamp = parseStamp(bytes[9..<tabs.0]) else { return .failure(.malformed("bad stamp")) }
        let kindText = String(decoding: bytes[(tabs.0 + 1)..<tabs.1], as: UTF8.self)
        if kindText == endKind {
            guard let count = Int(String(decoding: bytes[(tabs.1 + 1)..<tabs.2], as: UTF8.self)) else {
                return .failure(.malformed("bad end count"))
            }
            return .success(.end(count: count))
        }
        guard let kind = SyncChange.Kind(rawValue: kindText) else {
            return .failure(.malformed("unknown kind '\(kindText.prefix(20))'"))
        }
        let (value, url, guid) = (
            field((tabs.1 + 1)..<tabs.2), field((tabs.2 + 1)..<tabs.3), field((tabs.3 + 1)..<bytes.count)
        )
        guard kind.accepts(value) else {
            return .failure(
                .malformed(
                    "bad value for \(kindText): '\(String(decoding: value.prefix(20), as: UTF8.self))'"))
        }
        if value.contains(37) || url.contains(37) || guid.contains(37),
            unescape(value) == nil || unescape(url) == nil || unescape(guid) == nil
        {
            return .failure(.malformed("bad escape"))
        }
        return .success(.operation(stamp: stamp, kind: kind, value: value, feedURL: url, guid: guid))
    }

    private static func hexValue(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32? {
        var value: UInt32 = 0
        for digit in digits {
            guard let nibble = nibble(digit) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
    }

    private static func parseStamp(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var milliseconds: Int64 = 0
        var counter: Int64 = 0
        var seenDot = false
        var digits = 0
        for byte in field {
            if byte == 46, !seenDot {
                seenDot = true
                digits = 0
                continue
            }
            guard byte >= 48, byte <= 57, digits < 15 else { return nil }
            digits += 1
            if seenDot {
                counter = counter * 10 + Int64(byte - 48)
            } else {
                milliseconds = milliseconds * 10 + Int64(byte - 48)
            }
        }
        guard seenDot, digits > 0, counter < 1 << HybridClock.counterBits, milliseconds < 1 << 46 else {
            return nil
        }
        return milliseconds << HybridClock.counterBits | counter
    }

    /// The bytes of a field with its escapes undone (nil: a bad escape); the field itself
    /// when it has none.
    static func unescape(_ field: UnsafeRawBufferPointer) -> [UInt8]? {
        guard field.contains(37) else { return Array(field) }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = 0
        while index < field.count {
            let byte = field[index]
            if byte == 37 {
                guard index + 2 < field.count, let high = nibble(field[index + 1]),
                    let low = nibble(field[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
