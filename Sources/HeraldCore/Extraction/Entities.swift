import CLibXML2

/// Character references in a page's text and attributes: `&#8217;`, `&#x2019;` and the named
/// ones HTML 4 defines (libxml2's table) plus `&apos;`. As browsers do, numeric references to
/// C1 controls name Windows-1252's characters (`&#146;` is ’), and ones to nothing (a
/// surrogate, past U+10FFFF, NUL) become U+FFFD. In attributes a named reference needs its `;`
/// (`?a=1&copy=2` is a URL, not ©).
enum Entities {
    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Names that are read without their `;` in text (the ones pages leave it off).
    private static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], inAttribute: Bool) {
        let n = bytes.count
        var i = 0
        while i < n {
            let byte = bytes[i]
            guard byte == 0x26, i + 1 < n else {
                out.append(byte)
                i += 1
                continue
            }
            if let (scalar, length) = reference(bytes, at: i, inAttribute: inAttribute) {
                // Surrogates and values past U+10FFFF were made U+FFFD already.
                XMLFeedText.appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
                i += length
            } else {
                out.append(byte)
                i += 1
            }
        }
    }

    /// The character the reference at `i` (an `&`) names, and its length in bytes.
    private static func reference(_ b: UnsafeBufferPointer<UInt8>, at i: Int, inAttribute: Bool)
        -> (UInt32, Int)?
    {
        let n = b.count
        var j = i + 1
        if b[j] == 0x23 {  // &#
            j += 1
            let hex = j < n && (b[j] | 0x20) == 0x78
            if hex { j += 1 }
            let digitsStart = j
            var value: UInt32 = 0
            while j < n, j - digitsStart < 8 {
                let c = b[j]
                let digit: UInt32
                if c >= 0x30, c <= 0x39 {
                    digit = UInt32(c - 0x30)
                } else if hex, (c | 0x20) >= 0x61, (c | 0x20) <= 0x66 {
                    digit = UInt32((c | 0x20) - 0x61 + 10)
                } else {
                    break
                }
                value = value * (hex ? 16 : 10) + digit
                j += 1
            }
            guard j > digitsStart else { return nil }
            if j < n, b[j] == 0x3B { j += 1 }
            if (0x80...0x9F).contains(value) { value = windows1252[Int(value - 0x80)] }
            if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { value = 0xFFFD }
            return (value, j - i)
        }
        let nameStart = j
        while j < n, j - nameStart < 10, PageParser.isLetter(b[j]) || (b[j] >= 0x30 && b[j] <= 0x39) { j += 1 }
        guard j > nameStart else { return nil }
        let terminated = j < n && b[j] == 0x3B
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[nameStart..<j]), as: UTF8.self)
        guard terminated || (!inAttribute && legacy.contains(name)) else { return nil }
        let value: UInt32
        if name == "apos" {
            value = 0x27
        } else {
            guard let entity = name.withCString({ htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) })
            else { return nil }
            value = UInt32(entity.pointee.value)
        }
        return (value, j - i + (terminated ? 1 : 0))
    }
}
