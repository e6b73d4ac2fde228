/// Keys pressed one after another as one binding (`g g`, `g r`): the config file names them
/// in one quoted word (`bind "g g" top`). A key that begins a sequence waits for the next
/// one, with no timeout; the status line shows what waits (vim's showcmd), and a key that
/// goes on no sequence cancels it.
public enum KeySequence {
    /// `g g`, `Ctrl-X e`: the labels of the keys, spaced.
    public static func label(_ keys: [Key]) -> String {
        keys.map(\.label).joined(separator: " ")
    }
}

extension ActionBinding {
    /// Every key and sequence of the binding as the help shows them: sequences first
    /// (only the config file makes them), then the keys.
    public var labels: [String] { sequences.map(KeySequence.label) + keys.map(\.label) }

    /// True when some key or sequence does the action.
    public var isBound: Bool { !keys.isEmpty || !sequences.isEmpty }

    /// True when the binding holds this key (one key) or sequence.
    func contains(_ keys: [Key]) -> Bool {
        keys.count == 1 ? self.keys.contains(keys[0]) : sequences.contains(keys)
    }

    /// Puts a key or a sequence first.
    mutating func insert(_ keys: [Key]) {
        if keys.count == 1 { self.keys.insert(keys[0], at: 0) } else { sequences.insert(keys, at: 0) }
    }

    /// Takes a key or a sequence off.
    mutating func remove(_ keys: [Key]) {
        if keys.count == 1 {
            self.keys.removeAll { $0 == keys[0] }
        } else {
            sequences.removeAll { $0 == keys }
        }
    }
}

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
        let count = self.count
        self.count = nil
        guard let action = keymap.action(for: typed, on: kind) else {
            message = "\(KeySequence.label(typed)) does nothing here (cancelled)"
            return
        }
        perform(action, count: count)
    }
}
