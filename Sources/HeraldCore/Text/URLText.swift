/// Addresses from feeds made safe to store and print: every character that could act on a
/// terminal or reorder text (C0 and C1 controls, DEL, bidi controls) and every space is
/// percent-encoded, so the address still works and shows what it is.
///
/// Feed data is hostile on every path: a link reaches the article view, the links view,
/// `herald list --json` and `herald parse` exactly as stored.
public enum URLText {
    public static func escapingUnsafe(_ url: String) -> String {
        // Nearly every address is printable ASCII: nothing to do.
        if url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return url }
        var out = ""
        out.unicodeScalars.reserveCapacity(url.unicodeScalars.count)
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 || TextSanitizer.isForbidden(scalar) {
                for byte in String(scalar).utf8 {
                    out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
