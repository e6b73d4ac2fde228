/// References to C0 controls in HTML (`&#27;`, `&#x1B;`), read as the controls they name, so
/// that `TextSanitizer` sees an escape sequence whole: libxml2's HTML parser drops the
/// control a reference names and would leave the rest of the sequence (`[31m`) as text.
enum ControlReferences {
    /// `html` with each reference to a control other than tab, line feed and carriage
    /// return replaced by that control; the text itself when it has none (most HTML).
    static func decoded(_ html: String) -> String {
        guard html.utf8.contains(UInt8(ascii: "&")) else { return html }
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "&"), let (control, next) = reference(bytes, at: index) else {
                index += 1
                continue
            }
            out += bytes[copied..<index]
            out.append(control)
            index = next
            copied = next
        }
        guard copied > 0 else { return html }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The control a numeric reference at `start` names, and the index after its `;` (the
    /// `;` may be missing, as HTML allows); nil for any other.
    private static func reference(_ bytes: [UInt8], at start: Int) -> (UInt8, Int)? {
        var index = start + 1
        guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        let hex = index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "x")
        if hex { index += 1 }
        var value = 0
        let first = index
        while index < bytes.count, index - first < 8 {
            let byte = bytes[index]
            let digit: Int
            switch byte {
            case 0x30...0x39: digit = Int(byte - 0x30)
            case 0x41...0x46 where hex: digit = Int(byte - 0x37)
            case 0x61...0x66 where hex: digit = Int(byte - 0x57)
            default: digit = -1
            }
            guard digit >= 0 else { break }
            value = value * (hex ? 16 : 10) + digit
            index += 1
        }
        guard index > first, value < 0x20, value != 0x09, value != 0x0A, value != 0x0D else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
        return (UInt8(value), index)
    }
}
