extension Theme {
    /// The theme for a terminal without colours (`TERM=vt100`, `set colors no`, `NO_COLOR`):
    /// attributes only. Elements still at their default take the monochrome defaults below
    /// (the header and the selection in reverse video, unread bold, links underlined);
    /// elements the config coloured keep their attributes, a coloured background turning
    /// into reverse video.
    public func monochrome() -> Theme {
        var theme = self
        let standard = Theme(timeZone: timeZone)
        for element in Self.elements {
            guard let style = style(of: element) else { continue }
            let mono =
                style == standard.style(of: element)
                ? Self.monochromeDefaults[element] ?? style.withoutColors : style.withoutColors
            theme.set(element, mono)
        }
        return theme
    }

    /// The monochrome theme's styles (an element not named here keeps its default
    /// attributes).
    static let monochromeDefaults: [String: Style] = [
        "header": Style(bold: true, reverse: true),
        "marker": Style(bold: true),
        "error": Style(bold: true, underline: true),
        "match": Style(bold: true, underline: true),
        "selection": Style(reverse: true),
        "heading": Style(bold: true),
        "bullet": Style(bold: true),
        "quote": Style(italic: true),
    ]

    /// The theme for a terminal of `count` colours (0: none): monochrome below 8. Colours
    /// past what the terminal has are fitted by the terminal when it draws
    /// (`TerminalColor.fitted(toColors:)`).
    public func fitted(toColors count: Int) -> Theme {
        count < 8 ? monochrome() : self
    }
}
