import HeraldCore
import HeraldConfig

/// `?`: the keys of the screen on top, then the keys that work everywhere, from the action
/// table.
extension ReaderApp {
    func showHelp() {
        let kind = screenKind
        push(.page(Self.helpPage(for: kind, keymap: keymap)))
    }

    static func helpPage(for kind: ScreenKind, keymap: Keymap = .standard) -> PageModel {
        let (own, global) = keymap.bindings(on: kind)
        var paragraphs: [PageModel.Paragraph] = [.init("", "Keys of the \(kind.title)", role: .heading)]
        if kind == .search {
            paragraphs.append(
                .init("letters", "type the query (Backspace deletes, Ctrl-U clears, Ctrl-W deletes a word)"))
        }
        paragraphs += own.map { .init(keys($0), $0.summary) }
        paragraphs.append(.init("", "Everywhere", role: .heading))
        paragraphs += global.map { .init(keys($0), $0.summary) }
        if kind != .search {
            paragraphs.append(.init("", ActionTable.digitNote, role: .note))
        }
        paragraphs.append(.init("", "q or Esc closes this help.", role: .note))
        return PageModel(title: "Keys · \(kind.title)", paragraphs: paragraphs, labelWidth: 18)
    }

    static func keys(_ binding: ActionBinding) -> String {
        binding.labels.joined(separator: ", ")
    }
}
