public import HeraldConfig
/// One column of the screen.
///
/// A wide grapheme (Hangul, CJK, emoji) lives in its first cell with `width == 2`; the cell to
/// its right is a continuation (`width == 0`) that draws nothing of its own.
public struct Cell: Sendable, Hashable {
    public var grapheme: Character
    /// 1 for a normal cell, 2 for the first half of a wide grapheme, 0 for its second half.
    public var width: UInt8
    public var style: Style

    public init(_ grapheme: Character, width: UInt8 = 1, style: Style = .plain) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    public static let blank = Cell(" ")

    public var isContinuation: Bool { width == 0 }

    static func continuation(_ style: Style) -> Cell { Cell(" ", width: 0, style: style) }
}
