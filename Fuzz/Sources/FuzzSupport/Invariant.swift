/// What the fuzz targets hold the code to, beyond "does not crash, hang or run out of memory".
///
/// A broken invariant traps with its message, so libFuzzer keeps the input as a crash.
public enum Invariant {
    /// Traps with `message` when `condition` is false.
    public static func require(
        _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
    }

    /// True for a scalar that must never reach the terminal: C0, DEL, C1, and the bidi
    /// embeddings, overrides, isolates and marks. Written out here rather than asking
    /// `TextSanitizer`, so a wrong table there cannot agree with itself.
    public static func acts(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// Text for one line: nothing that acts on a terminal, no tab or line break.
    public static func oneLine(_ text: String, _ what: @autoclosure () -> String) {
        if let bad = text.unicodeScalars.first(where: acts) {
            require(false, "\(what()) holds U+\(hex(bad)): \(text.debugDescription)")
        }
    }

    /// Text for a body: nothing that acts on a terminal but line feeds and tabs.
    public static func body(_ text: String, _ what: @autoclosure () -> String) {
        if let bad = text.unicodeScalars.first(where: { acts($0) && $0 != "\n" && $0 != "\t" }) {
            require(false, "\(what()) holds U+\(hex(bad)): \(text.debugDescription)")
        }
    }

    /// An address as stored and printed: nothing that acts on a terminal, no ASCII space
    /// (`URLText.escapingUnsafe` percent-encodes them).
    public static func address(_ text: String, _ what: @autoclosure () -> String) {
        if let bad = text.unicodeScalars.first(where: { acts($0) || $0 == " " }) {
            require(false, "\(what()) holds U+\(hex(bad)): \(text.debugDescription)")
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
