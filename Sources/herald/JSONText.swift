import HeraldCore

/// JSON for a terminal: what `JSONEncoder` leaves as it is but a terminal would act on (C1
/// controls, DEL, bidi controls) is written as `\uXXXX`, which JSON readers read back the same.
/// (Line breaks and tabs are left: outside strings they are the layout of pretty-printed
/// JSON, and inside strings the encoder has already escaped them.)
enum JSONText {
    static func safe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isEscaped) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if isEscaped(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        TextSanitizer.isForbidden(scalar) && scalar != "\n" && scalar != "\t" && scalar != "\r"
    }
}
