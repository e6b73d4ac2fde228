import HeraldCore

/// A page of text to read and scroll: the help (`?`), or the whole message of a failed feed.
///
/// Each paragraph is a label in a left column (a key, a field name) and text that wraps in
/// the column to its right.
@MainActor
public final class PageModel {
    /// What the paragraph is, for its style.
    public enum Role: Sendable, Hashable { case heading, text, note, error }

    public struct Paragraph: Sendable, Hashable {
        public var label: String
        public var text: String
        public var role: Role

        public init(_ label: String = "", _ text: String, role: Role = .text) {
            self.label = label
            self.text = text
            self.role = role
        }
    }

    public let title: String
    public let paragraphs: [Paragraph]
    /// Columns of the label column.
    public let labelWidth: Int
    public var top = 0

    public init(title: String, paragraphs: [Paragraph], labelWidth: Int) {
        self.title = title
        self.paragraphs = paragraphs
        self.labelWidth = labelWidth
    }

    /// The page laid out for a width: each line is a label (or its blank column) and text.
    public func lines(width: Int) -> [(label: String, text: String, role: Role)] {
        let column = min(labelWidth, max(width / 3, 0))
        var out: [(label: String, text: String, role: Role)] = []
        for paragraph in paragraphs {
            if paragraph.role == .heading, !out.isEmpty { out.append(("", "", .text)) }
            let indent = paragraph.label.isEmpty && paragraph.role != .text ? 0 : column
            let rows = TextLayout.wrap(paragraph.text, width: max(width - indent - 1, 1))
            for (index, row) in (rows.isEmpty ? [""] : rows).enumerated() {
                out.append((index == 0 ? paragraph.label : "", row, paragraph.role))
            }
        }
        return out
    }

    public func scroll(by delta: Int, lineCount: Int, visible: Int) {
        top = max(0, min(top + delta, lineCount - visible))
    }
}
