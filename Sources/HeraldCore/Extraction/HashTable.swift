/// A fixed set of 64-bit name hashes (FNV-1a of tag, attribute and class words), each with a
/// value, looked up by open addressing on the hash's own bits: the names are hashes already,
/// and Swift's `Dictionary` hashed them again (SipHash) for every tag and class word of a page.
struct HashTable<Value: Sendable>: Sendable {
    private var keys: [UInt64]
    private var values: [Value?]
    private let mask: Int

    init(_ entries: [(UInt64, Value)]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        mask = size - 1
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: nil, count: size)
        for (key, value) in entries {
            var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while values[slot] != nil, keys[slot] != key { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }
    }

    subscript(key: UInt64) -> Value? {
        var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while let value = values[slot] {
            if keys[slot] == key { return value }
            slot = (slot + 1) & mask
        }
        return nil
    }

    func contains(_ key: UInt64) -> Bool { self[key] != nil }
}
