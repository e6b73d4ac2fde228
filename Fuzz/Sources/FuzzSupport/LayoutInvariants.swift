public import HeraldCore

extension Invariant {
    /// Lines laid out for `width` columns fit in it, measured span by span as the canvas draws
    /// them. Only a line with one visible grapheme may be wider (a wide character when `width`
    /// is 1, with any zero-width ones).
    public static func fits(_ lines: [RichLine], width: Int, _ what: @autoclosure () -> String) {
        for (index, line) in lines.enumerated() {
            let used = line.spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
            require(
                used <= max(width, 1) || visible(line.spans.map(\.text).joined()) == 1,
                "\(what()): line \(index) takes \(used) columns of \(width): \(line.text.debugDescription)")
        }
    }

    /// Plain lines that fit in `width` columns, with the same exception.
    public static func fits(_ lines: [String], width: Int, _ what: @autoclosure () -> String) {
        for (index, line) in lines.enumerated() {
            let used = DisplayWidth.of(line)
            require(
                used <= max(width, 1) || visible(line) == 1,
                "\(what()): line \(index) takes \(used) columns of \(width): \(line.debugDescription)")
        }
    }

    private static func visible(_ text: String) -> Int {
        text.reduce(0) { $0 + (DisplayWidth.of($1) > 0 ? 1 : 0) }
    }
}
