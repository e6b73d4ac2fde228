#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page's bytes as UTF-8, whatever it was written in: UTF-8 stays as it is; otherwise the
/// charset the server named, else the page's own `<meta charset>` (in its first 4 KB), else
/// Windows-1252 (what browsers assume of a Western page that names none), converted with
/// iconv. Bytes a charset cannot read become U+FFFD; nothing fails.
public enum PageBytes {
    public static func utf8(_ bytes: [UInt8], charset declared: String? = nil) -> [UInt8] {
        if let name = declared.map(normalised), isUTF8Name(name) || isValidUTF8(bytes) { return bytes }
        if isValidUTF8(bytes) { return bytes }
        let name = declared.map(normalised) ?? metaCharset(bytes) ?? "windows-1252"
        if isUTF8Name(name) { return Array(String(decoding: bytes, as: UTF8.self).utf8) }
        return convert(bytes, from: name) ?? convert(bytes, from: "windows-1252")
            ?? Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    static func normalised(_ name: String) -> String {
        String(name.lowercased().filter { !$0.isWhitespace && $0 != "\"" && $0 != "'" })
    }

    static func isUTF8Name(_ name: String) -> Bool { name == "utf-8" || name == "utf8" }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The charset a `<meta charset="…">` or `<meta http-equiv content="…; charset=…">` in
    /// the first 4 KB names.
    static func metaCharset(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self).lowercased()
        guard let range = head.range(of: "charset=") else { return nil }
        let name = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
            .prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" || $0 == "." }
        return name.isEmpty || name.count > 40 ? nil : String(name)
    }

    /// `bytes` converted from `charset` by iconv, unreadable sequences as U+FFFD; nil when
    /// iconv does not know the charset.
    static func convert(_ bytes: [UInt8], from charset: String) -> [UInt8]? {
        let converter = iconv_open("UTF-8", charset)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var input = bytes
        var buffer = [UInt8](repeating: 0, count: 65_536)
        input.withUnsafeMutableBufferPointer { source in
            guard var inPointer = source.baseAddress.map({ UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) })
            else { return }
            var inLeft = source.count
            while inLeft > 0 {
                let (result, produced): (Int, Int) = buffer.withUnsafeMutableBufferPointer { target in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)  // 65,536 bytes: never empty
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count
                    var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                    let result = iconv(converter, &inOptional, &inLeft, &outPointer, &outLeft)
                    if let inOptional { inPointer = inOptional }
                    return (result, target.count - outLeft)
                }
                out += buffer[0..<produced]
                if result == -1 {
                    if errno == E2BIG { continue }
                    // A sequence the charset cannot read (or cut short at the end): U+FFFD, skip a byte.
                    out += [0xEF, 0xBF, 0xBD]
                    inPointer += 1
                    inLeft -= 1
                }
            }
        }
        return out
    }
}
