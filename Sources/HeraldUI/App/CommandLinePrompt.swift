import HeraldCore
import HeraldConfig

/// The `:` command line on the status line while it is open: the text typed (edited as the
/// search prompt edits its query), Tab's candidates, and where Up/Down are in the history.
public struct CommandPrompt: Sendable, Equatable {
    public internal(set) var text = ""
    /// What Tab found when more than one command fits, shown after the text.
    public internal(set) var candidates: [String] = []
    /// The history entry shown (Up/Down), nil while editing a new line.
    var recalled: Int?
    /// The line being typed before Up, back on Down past the newest entry.
    var draft = ""

    /// Up (`older`) or Down through `history` (oldest first).
    mutating func recall(older: Bool, in history: [String]) {
        guard !history.isEmpty else { return }
        candidates = []
        switch (recalled, older) {
        case (nil, true):
            draft = text
            recalled = history.count - 1
        case (nil, false):
            return
        case (let index?, true):
            recalled = max(index - 1, 0)
        case (let index?, false):
            recalled = index + 1 < history.count ? index + 1 : nil
        }
        text = recalled.map { history[$0] } ?? draft
    }

    /// Draws `:text` and the caret on the status line, the candidates dim after it; a long
    /// line shows its end.
    func draw(into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1 else { return }
        canvas.fill(row: row, style: theme.status)
        let room = max(canvas.size.width - 3, 1)
        // The end of the line, where the typing is (`tail` reads only what fits).
        let (shown, cut) = TextLayout.tail(text, toWidth: room)
        var x = canvas.write(":", x: 0, y: row, style: theme.marker)
        if cut { x += canvas.write("…", x: x, y: row, style: theme.hint) }
        x += canvas.write(TextSanitizer.singleLine(String(shown)), x: x, y: row, style: theme.status)
        x += canvas.write(" ", x: x, y: row, style: theme.caret)
        if !candidates.isEmpty, x + 2 < canvas.size.width {
            let list = TextLayout.truncate(
                candidates.joined(separator: " "), toWidth: canvas.size.width - x - 2)
            canvas.write(list, x: x + 2, y: row, style: theme.hint)
        }
    }
}
