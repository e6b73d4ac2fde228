import HeraldCore

/// The action table printed for people: the README's key table and `herald --help`'s key
/// section. Both come from `ActionTable.bindings`, so they say what the keys do.
public enum KeyTable {
    /// Where a binding works, in words.
    public static func places(_ binding: ActionBinding) -> String {
        guard !binding.isGlobal else { return "everywhere" }
        if Set(binding.screens) == Set(ScreenKind.lists + [.results, .article, .page]) {
            return "every list, article, help"
        }
        if Set(binding.screens) == Set(ScreenKind.lists + [.results, .page]) { return "every list, help" }
        return binding.screens.map(\.title).joined(separator: ", ")
    }

    /// The README table (Markdown): keys, what they do, where.
    public static func markdown(keymap: Keymap = .standard) -> String {
        var lines = ["| keys | what they do | where |", "| --- | --- | --- |"]
        // A `|` ends a table cell even inside a code span: escaped, it shows as itself.
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        for binding in keymap.bindings where binding.isBound {
            let keys = binding.labels.map { "`\($0)`" }.joined(separator: " ")
            lines.append("| \(cell(keys)) | \(cell(binding.summary)) | \(cell(places(binding))) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `herald --help`'s key section: keys, then what they do and where, wrapped to `width`.
    public static func plainText(width: Int = 80, keymap: Keymap = .standard) -> String {
        let keyColumn = 20
        var lines: [String] = []
        for binding in keymap.bindings where binding.isBound {
            let keys = binding.labels.joined(separator: ", ")
            let text = binding.summary + (binding.isGlobal ? "" : " [\(places(binding))]")
            let wrapped = TextLayout.wrap(text, width: width - keyColumn - 2)
            let pad = String(repeating: " ", count: max(keyColumn - DisplayWidth.of(keys), 1))
            lines.append("  " + keys + pad + (wrapped.first ?? ""))
            for more in wrapped.dropFirst() {
                lines.append(String(repeating: " ", count: keyColumn + 2) + more)
            }
        }
        lines.append("")
        lines += TextLayout.wrap(ActionTable.digitNote, width: width - 2).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
