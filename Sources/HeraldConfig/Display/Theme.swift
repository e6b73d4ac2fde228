public import Foundation
public import HeraldCore

/// The styles and formats the views draw with.
///
/// The default colours read on dark and light backgrounds alike: no yellow or cyan text
/// (too pale on white), no blue text (too dark on black) but links, which are underlined
/// too; colour is kept for bars and
/// accents, and what matters is also told by an attribute or a character, so the monochrome
/// theme (`monochrome()`) loses nothing.
public struct Theme: Sendable {
    public var header = Style(foreground: .white, background: .blue, bold: true)
    /// Plain on purpose: the position counter changes on every move, and an unstyled cell
    /// costs a few bytes where a coloured one costs ~30 (it matters over slow ssh links).
    public var status = Style()
    public var hint = Style(dim: true)
    public var marker = Style(foreground: .magenta, bold: true)
    public var unread = Style(bold: true)
    public var read = Style()
    public var date = Style()
    public var counts = Style(foreground: .green)
    public var error = Style(foreground: .red, bold: true)
    public var label = Style(foreground: .green)
    public var title = Style(bold: true)
    public var link = Style(foreground: .blue, underline: true)
    /// Query words found in a search result's title.
    public var match = Style(foreground: .magenta, bold: true)
    /// The selected row of a list: a bar across the screen (black on cyan, mutt's
    /// indicator; terminals without colours draw it in reverse video). One style for the
    /// whole row, and a background colour rather than
    /// reverse video, so the terminal clears the rest of the row in that colour with one
    /// `EL` (back-colour erase) instead of being sent a space per column.
    public var selection = Style(foreground: .black, background: .cyan)
    /// The search prompt's caret: one reverse-video cell (the terminal cursor stays hidden).
    public var caret = Style(reverse: true)
    /// Article bodies: headings, quotes, code, rules and list markers.
    public var heading = Style(foreground: .magenta, bold: true)
    public var quote = Style(foreground: .green)
    public var code = Style(foreground: .magenta)
    public var rule = Style(dim: true)
    public var bullet = Style(foreground: .magenta)

    /// A cell of the selected row: the selection style, the same for the whole row (a
    /// change of attribute inside the row would cost the terminal a reset and the colours
    /// again; unread rows are told by their `N` and counts).
    public func selected(_ style: Style) -> Style { selection }

    /// How a span of an article body looks: its role's style, with its inline styles on top.
    public func style(of span: RichSpan) -> Style {
        var style: Style
        let inline: InlineStyle
        switch span.role {
        case .prefix: return span.quoted ? quote : bullet
        case .rule: return rule
        case .heading(_, let styles): (style, inline) = (heading, styles)
        case .text(let styles): (style, inline) = (span.quoted ? quote : read, styles)
        }
        if inline.contains(.code) { style.foreground = code.foreground }
        if inline.contains(.link) || inline.contains(.linkNumber) { style.foreground = link.foreground }
        if inline.contains(.link) || inline.contains(.underline) { style.underline = true }
        if inline.contains(.image) { style.foreground = label.foreground }
        if inline.contains(.strong) { style.bold = true }
        if inline.contains(.emphasis) { style.italic = true }
        if inline.contains(.struck) { style.dim = true }
        return style
    }

    /// The elements the config's `color` line names, in the order `config default` lists them.
    public static let elements = [
        "header", "status", "hint", "marker", "unread", "read", "date", "counts", "error", "label", "title",
        "link", "match", "selection", "caret", "heading", "quote", "code", "rule", "bullet",
    ]

    /// The style of an element (see `elements`).
    public func style(of element: String) -> Style? {
        switch element {
        case "header": header
        case "status": status
        case "hint": hint
        case "marker": marker
        case "unread": unread
        case "read": read
        case "date": date
        case "counts": counts
        case "error": error
        case "label": label
        case "title": title
        case "link": link
        case "match": match
        case "selection": selection
        case "caret": caret
        case "heading": heading
        case "quote": quote
        case "code": code
        case "rule": rule
        case "bullet": bullet
        default: nil
        }
    }

    /// Sets an element's style; false for an unknown element.
    @discardableResult
    public mutating func set(_ element: String, _ style: Style) -> Bool {
        switch element {
        case "header": header = style
        case "status": status = style
        case "hint": hint = style
        case "marker": marker = style
        case "unread": unread = style
        case "read": read = style
        case "date": date = style
        case "counts": counts = style
        case "error": error = style
        case "label": label = style
        case "title": title = style
        case "link": link = style
        case "match": match = style
        case "selection": selection = style
        case "caret": caret = style
        case "heading": heading = style
        case "quote": quote = style
        case "code": code = style
        case "rule": rule = style
        case "bullet": bullet = style
        default: return false
        }
        return true
    }

    /// The zone dates are shown in (fixed in tests and snapshots).
    public var timeZone: TimeZone
    /// How dates are written (`set date-format`).
    public var dateFormat = DateFormat.iso
    /// How dates are written in the article lists (`set datetime-format`); nil: `dateFormat`.
    public var listDateFormat: DateFormat?
    /// The article lists' rows (`set articlelist-format`); nil: Herald's own.
    public var articleListFormat: ListFormat?
    /// The feed list's rows (`set feedlist-format`); nil: Herald's own.
    public var feedListFormat: ListFormat?
    /// The article body's widest column (`set text-width`; 0: the window's width).
    public var textWidth = 0
    /// The article's column sits in the middle of a wider window (`set text-align centre`).
    public var centreText = false
    /// The selected row is marked by `>` alone, without the bar (`set cursor arrow`).
    public var arrowCursor = false

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    /// The date in the date format (`2026-11-03`); blanks of the same width without one.
    public func day(_ date: Date?) -> String {
        guard let date else { return String(repeating: " ", count: dateFormat.width) }
        return dateFormat.string(date, calendar: calendar)
    }

    /// The date as the article lists show it: `datetime-format`, else `date-format`; blanks
    /// of the same width without a date.
    public func listDay(_ date: Date?) -> String {
        let format = listDateFormat ?? dateFormat
        guard let date else { return String(repeating: " ", count: format.width) }
        return format.string(date, calendar: calendar)
    }

    /// The width of the article lists' date column.
    public var listDateWidth: Int { (listDateFormat ?? dateFormat).width }

    /// The date and time for the article header (`2026-11-03 09:15`): the date format,
    /// with the time added when the format has none.
    public func dayAndTime(_ date: Date?) -> String {
        guard let date else { return "unknown" }
        if dateFormat.hasTime { return day(date) }
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return day(date) + " \(Self.two(c.hour!)):\(Self.two(c.minute!))"
    }

    /// Where the article's column goes in a window `width` wide: its first column and width.
    public func readingColumn(width: Int) -> (x: Int, width: Int) {
        guard textWidth > 0, textWidth < width else { return (0, width) }
        return (centreText ? (width - textWidth) / 2 : 0, textWidth)
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
