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
