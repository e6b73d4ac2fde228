#if canImport(Glibc)
    import Glibc
#endif

/// Finds a start tag with too many attributes before libxml2 sees it.
///
/// libxml2 2.9 checks each attribute of a tag against all the ones before it (for
/// duplicates): an element with 200,000 attributes took 8.5 s to parse, and the 16 MB cap
/// leaves room for 1.5 million (hours). No real feed or article comes near: a tag with more
/// than `limit` attributes is refused (a feed) or cut off (an article's HTML), at the cost of
/// one pass over the bytes.
///
/// Attributes are counted as the runs of non-space bytes after the tag's name, outside
/// quotes (`a="1" b c='2'` is three), so HTML's attributes without a value count too.
/// Comments, CDATA sections, processing instructions, declarations and end tags are passed
/// over; a `<` not followed by a letter is text.
public enum CrowdedTags {
    public static let limit = 10_000

    /// The offset of the `<` of the first tag with more than `limit` attributes, or nil.
    /// NUL bytes are left out first, so UTF-16 is read as its ASCII bytes (the offset is then
    /// 0: such a document is refused whole).
    public static func firstOffset(in bytes: UnsafeRawBufferPointer, limit: Int = limit) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        if memchr(base, 0, bytes.count) != nil {
            let packed = bytes.filter { $0 != 0 }
            return packed.withUnsafeBytes { scan($0, limit: limit) } == nil ? nil : 0
        }
        return scan(bytes, limit: limit)
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        /// The index just past the first `end` at or after `from` (n when there is none).
        func after(_ end: StaticString, from: Int) -> Int {
            let count = end.utf8CodeUnitCount
            let first = Int32(end.utf8Start[0])
            var i = from
            while i + count <= n {
                // memchr finds the candidates at memory speed.
                guard let hit = memchr(base + i, first, n - i) else { return n }
                i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard i + count <= n else { return n }
                if memcmp(base + i, end.utf8Start, count) == 0 { return i + count }
                i += 1
            }
            return n
        }
        func starts(_ prefix: StaticString, at i: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard i + count <= n else { return false }
            for k in 0..<count where bytes[i + k] != prefix.utf8Start[k] { return false }
            return true
        }
        var i = 0
        while i < n {
            guard let open = memchr(base + i, 0x3C, n - i) else { break }  // the next <
            i = base.distance(to: open.assumingMemoryBound(to: UInt8.self))
            let start = i
            i += 1
            guard i < n else { break }
            switch bytes[i] {
            case 0x21:  // <!
                if starts("!--", at: i) {
                    i = after("-->", from: i + 3)
                } else if starts("![CDATA[", at: i) {
                    i = after("]]>", from: i + 8)
                } else {
                    i = after(">", from: i)
                }
                continue
            case 0x3F: i = after("?>", from: i)  // <?
            case 0x2F: i = after(">", from: i)  // </
            case 0x41...0x5A, 0x61...0x7A, 0x5F, 0x3A:  // a name: a start tag
                while i < n, !isSpace(bytes[i]), bytes[i] != 0x3E { i += 1 }
                var count = 0
                var inToken = false
                while i < n {
                    let byte = bytes[i]
                    if byte == 0x3E {
                        i += 1
                        break
                    }
                    if byte == 0x22 || byte == 0x27 {  // a quoted value, passed over whole
                        if !inToken { count += 1 }
                        inToken = true
                        i += 1
                        while i < n, bytes[i] != byte { i += 1 }
                        i += 1
                    } else if isSpace(byte) {
                        inToken = false
                        i += 1
                    } else {
                        if !inToken && byte != 0x2F { count += 1 }
                        inToken = true
                        i += 1
                    }
                    if count > limit { return start }
                }
            default: break  // `<` as text
            }
        }
        return nil
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
