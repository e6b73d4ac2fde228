import Foundation
import HeraldConfig
import HeraldCore

/// Draws the podcast queue: a row per episode, its state, a bar and its bytes while it
/// downloads, its title; the status line names the selected one's file, or why it failed.
@MainActor
struct DownloadsView {
    var model: DownloadsModel
    var theme: Theme
    var keymap: Keymap = .standard

    /// "3 episodes · 1 downloading · up to 2 at once".
    static func status(_ model: DownloadsModel) -> String {
        let entries = model.entries
        let downloading = entries.count { $0.state == .downloading }
        let failed = entries.count { $0.state == .failed }
        return [
            "\(entries.count) episode\(entries.count == 1 ? "" : "s")",
            downloading == 0 ? nil : "\(downloading) downloading",
            failed == 0 ? nil : "\(failed) failed",
            "up to \(model.maxDownloads) at once",
        ].compactMap { $0 }.joined(separator: " · ")
    }

    func draw(into canvas: inout Canvas) {
        let selected = model.selected
        let notice: String
        switch selected?.state {
        case .failed?: notice = TextSanitizer.singleLine(selected?.error ?? "failed")
        case nil: notice = ""
        default: notice = TextSanitizer.singleLine(selected?.path ?? "")
        }
        // A long path keeps its end (the file's name) on a narrow status line.
        let status = Self.status(model)
        let room = canvas.size.width - DisplayWidth.of(status) - 4
        let frame = ScreenFrame(
            title: "Herald · Podcasts", status: status,
            notice: selected?.state == .failed ? notice : Self.keepingEnd(notice, width: room),
            noticeStyle: selected?.state == .failed ? theme.error : nil,
            hint: keymap.hint(for: .downloads), theme: theme)
        let rows = frame.draw(into: &canvas)
        let entries = model.entries
        let body = ListBody(
            failure: model.failure, isLoaded: model.isLoaded, count: entries.count,
            item: { entries.indices.contains($0) ? entries[$0] : nil }, cursor: model.cursor, theme: theme,
            empty: "No episode in the queue: e on an article with a podcast adds it.")
        body.draw(into: &canvas, rows: rows) { entry, y, canvas in
            let width = canvas.size.width
            var x = 2
            let state = entry.state.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
            x += canvas.write(state, x: x, y: y, style: style(entry.state))
            x += 1
            if width >= 60 {
                // A failed one says why where the others have their progress.
                if entry.state == .failed {
                    let why = TextLayout.truncate(TextSanitizer.singleLine(entry.error ?? ""), toWidth: 41)
                    canvas.write(why, x: x, y: y, style: theme.error)
                    x += 43
                } else {
                    x += canvas.write(Self.progress(entry), x: x, y: y, style: theme.counts)
                    x += 2
                }
            }
            let title = TextSanitizer.singleLine(entry.title)
            let feed = TextSanitizer.singleLine(entry.feedTitle)
            let text = feed.isEmpty ? title : "\(title) · \(feed)"
            canvas.write(
                TextLayout.truncate(text, toWidth: max(width - x - 1, 1)), x: x, y: y,
                style: entry.state == .played ? theme.read : theme.unread)
        }
    }

    /// `…/Pod & cast/episode.mp3`: the text's end in `width` columns.
    static func keepingEnd(_ text: String, width: Int) -> String {
        guard width > 1, DisplayWidth.of(text) > width else { return width > 1 ? text : "" }
        var kept = Substring(text)
        while !kept.isEmpty, DisplayWidth.of(String(kept)) > width - 1 { kept = kept.dropFirst() }
        return "…" + kept
    }

    private func style(_ state: Download.State) -> Style {
        switch state {
        case .failed: theme.error
        case .downloading: theme.marker
        case .finished: theme.label
        case .queued, .cancelled, .played: theme.read
        }
    }

    /// `[######----]  61%   12 MB/20 MB   1.2 MB/s`: ASCII (a block character is two columns
    /// wide in some CJK terminals), 41 columns whatever the state; sizes as `Enclosure.size`.
    static func progress(_ entry: Download) -> String {
        var bar = String(repeating: " ", count: 17)
        if let fraction = entry.fraction, entry.state != .finished, entry.state != .played {
            let filled = Int((fraction * 10).rounded(.down))
            bar =
                "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 10 - filled) + "]"
                + String(format: "%4d%%", Int((fraction * 100).rounded(.down)))
        }
        let size: String
        switch (entry.state, entry.size) {
        case (.finished, _), (.played, _): size = Enclosure.size(entry.received)
        case (_, let total?): size = "\(Enclosure.size(entry.received))/\(Enclosure.size(total))"
        case (_, nil): size = entry.received > 0 ? Enclosure.size(entry.received) : ""
        }
        var speed = ""
        if entry.state == .downloading, let bytes = entry.speed { speed = Enclosure.size(Int64(bytes)) + "/s" }
        return bar + " " + size.leftPadding(to: 13) + " " + speed.leftPadding(to: 9)
    }
}

extension String {
    fileprivate func leftPadding(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
