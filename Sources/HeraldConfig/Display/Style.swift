/// A colour of the terminal's palette, or its default colour.
///
/// Indexes follow xterm: 0–7 the basic colours (`black` … `white`), 8–15 their bright
/// forms, 16–231 a 6×6×6 colour cube, 232–255 a grey ramp. A terminal with fewer colours
/// draws the nearest one it has (`fitted(toColors:)`).
public struct TerminalColor: Sendable, Hashable, CustomStringConvertible {
    /// The palette index; nil for the terminal's default colour.
    public let index: UInt8?

    public init(_ index: UInt8) { self.index = index }
    private init(default: Void) { index = nil }

    public static let `default` = TerminalColor(default: ())
    public static let black = TerminalColor(0)
    public static let red = TerminalColor(1)
    public static let green = TerminalColor(2)
    public static let yellow = TerminalColor(3)
    public static let blue = TerminalColor(4)
    public static let magenta = TerminalColor(5)
    public static let cyan = TerminalColor(6)
    public static let white = TerminalColor(7)

    /// The names of the basic colours, by index; `bright-NAME` adds 8.
    public static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// `default`, `red`, `bright-red`, `color123`: the config file's spelling.
    public var description: String {
        guard let index else { return "default" }
        if index < 8 { return Self.basicNames[Int(index)] }
        if index < 16 { return "bright-" + Self.basicNames[Int(index) - 8] }
        return "color\(index)"
    }

    /// Reads a colour as the config file writes it: `default`, a basic name, `bright-NAME`
    /// (newsboat's `brightNAME` too), `colorN` or `N` for 0–255. Case does not matter.
    public static func parse(_ text: String) -> TerminalColor? {
        let word = text.lowercased()
        if word == "default" { return .default }
        if let basic = basicNames.firstIndex(of: word) { return TerminalColor(UInt8(basic)) }
        for prefix in ["bright-", "bright"] where word.hasPrefix(prefix) {
            if let basic = basicNames.firstIndex(of: String(word.dropFirst(prefix.count))) {
                return TerminalColor(UInt8(basic + 8))
            }
        }
        let digits =
            word.hasPrefix("colour")
            ? word.dropFirst(6) : word.hasPrefix("color") ? word.dropFirst(5) : Substring(word)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.count <= 3, let number = UInt8(digits)
        else { return nil }
        return TerminalColor(number)
    }

    /// The colour on a terminal of `count` colours: itself when the terminal has it, else the
    /// nearest of the 16 (or 8) basic colours by distance in xterm's default RGB palette; nil
    /// for a terminal without colours.
    public func fitted(toColors count: Int) -> TerminalColor? {
        guard count >= 8 else { return nil }
        guard let index, Int(index) >= count else { return self }
        let target = Self.rgb(index)
        let candidates = count >= 16 ? 0..<16 : 0..<8
        let nearest = candidates.min { a, b in
            Self.distance(Self.rgb(UInt8(a)), target) < Self.distance(Self.rgb(UInt8(b)), target)
        }
        return TerminalColor(UInt8(nearest ?? 7))
    }

    /// xterm's default palette.
    static func rgb(_ index: UInt8) -> (Int, Int, Int) {
        let basic = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        let i = Int(index)
        if i < 16 { return basic[i] }
        if i >= 232 {
            let grey = 8 + (i - 232) * 10
            return (grey, grey, grey)
        }
        let level = { (n: Int) in n == 0 ? 0 : 55 + n * 40 }
        let cube = i - 16
        return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (r, g, b) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return r * r + g * g + b * b
    }
}

/// How a cell is drawn: colours and attributes.
public struct Style: Sendable, Hashable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool
    /// Terminals without italics show the text plain.
    public var italic: Bool

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, reverse: Bool = false, underline: Bool = false, dim: Bool = false,
        italic: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
        self.italic = italic
    }

    public static let plain = Style()

    /// The style without colours, for monochrome: attributes stay, and a coloured
    /// background (a bar) becomes reverse video.
    public var withoutColors: Style {
        var style = self
        if background != .default { style.reverse = true }
        style.foreground = .default
        style.background = .default
        return style
    }
}
