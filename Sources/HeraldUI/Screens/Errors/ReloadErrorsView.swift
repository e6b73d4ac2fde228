import HeraldCore
import HeraldConfig

/// Draws the failed feeds: title and why (Enter opens the whole message).
@MainActor
struct ReloadErrorsView {
    var model: ReloadErrorsModel
    var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard

    /// "the account failed · 2 feeds failed · 1 read with errors".
    static func status(_ model: ReloadErrorsModel) -> String {
        let (accounts, broken) = (model.accounts, model.readWithErrors)
        let failed = model.failures.count - broken - accounts
        let parts = [
            accounts == 0 ? nil : "the account failed",
            failed == 0 ? nil : "\(failed) feed\(failed == 1 ? "" : "s") failed",
            broken == 0 ? nil : "\(broken) feed\(broken == 1 ? "" : "s") read with errors",
        ]
        return parts.compactMap { $0 }.joined(separator: " · ")
    }

    func draw(into canvas: inout Canvas) {
        let frame = ScreenFrame(
            title: "Herald · Reload errors",
            status: Self.status(model),
            hint: keymap.hint(for: .errors), theme: theme)
        let rows = frame.draw(into: &canvas)
        let failures = model.failures
        let body = ListBody(
            failure: nil, isLoaded: true, count: failures.count, item: { failures[$0] }, cursor: model.cursor,
            theme: theme, empty: "No feed failed.")
        body.draw(into: &canvas, rows: rows) { failure, y, canvas in
            let width = canvas.size.width
            let title = TextLayout.truncate(failure.title, toWidth: max(width / 3, 8))
            let used = canvas.write(title, x: 2, y: y, style: theme.unread)
            canvas.write(
                TextLayout.truncate(failure.reason, toWidth: max(width - used - 5, 1)), x: used + 4, y: y,
                style: theme.error)
        }
    }
}
