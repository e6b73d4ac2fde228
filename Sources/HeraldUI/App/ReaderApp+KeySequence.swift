import HeraldConfig

extension ReaderApp {
    /// A key while a sequence waits (or the key that starts one): the sequence's action once
    /// it is whole, the wait shown on the status line meanwhile; a key that goes on no
    /// sequence ends the wait and says so.
    func continueSequence(_ key: Key, on kind: ScreenKind) {
        let typed = pendingKeys + [key]
        if keymap.isPrefix(typed, on: kind) {
            pendingKeys = typed
            let next = keymap.continuations(of: typed, on: kind)
                .map { KeySequence.label(Array($0.keys.dropFirst(typed.count))) + ":" + $0.action.rawValue }
            message = KeySequence.label(typed) + " …  " + next.joined(separator: "  ")
            return
        }
        pendingKeys = []
        guard let action = keymap.action(for: typed, on: kind) else {
            message = "\(KeySequence.label(typed)) does nothing here (cancelled)"
            return
        }
        perform(action, count: nil)
    }
}
