public import HeraldConfig

extension ReaderApp {
    /// What takes the keys before the screen on top does: one mode at a time, as one value.
    enum Overlay {
        /// No mode: keys go through the keymap to the screen on top.
        case none
        /// A number typed before a key (`5 j`, `7 Enter`), the first keys of a sequence (the
        /// `g` of `g g`), or both.
        case typing(count: Int?, keys: [Key])
        /// A yes/no question on the status line: `y` runs the action, any other key cancels.
        case confirmation(Confirmation)
        /// The `:` command line.
        case commandLine(CommandPrompt)

        /// What has been typed so far; nothing typed is no mode.
        static func typed(count: Int?, keys: [Key]) -> Overlay {
            count == nil && keys.isEmpty ? .none : .typing(count: count, keys: keys)
        }
    }

    /// A number typed before a key (`5 j`, `7 Enter`, `3 o`), nil when none.
    public internal(set) var count: Int? {
        get { if case .typing(let count, _) = overlay { count } else { nil } }
        set {
            // A count exists only where keys are typed: the command line and a question stay.
            guard case .none = overlay else {
                if case .typing = overlay { overlay = .typed(count: newValue, keys: pendingKeys) }
                return
            }
            overlay = .typed(count: newValue, keys: [])
        }
    }

    /// The keys typed so far of a key sequence (the `g` of `g g`), shown on the status line.
    public internal(set) var pendingKeys: [Key] {
        get { if case .typing(_, let keys) = overlay { keys } else { [] } }
        set {
            guard case .none = overlay else {
                if case .typing = overlay { overlay = .typed(count: count, keys: newValue) }
                return
            }
            overlay = .typed(count: nil, keys: newValue)
        }
    }

    /// The `:` command line while it is open.
    public internal(set) var commandPrompt: CommandPrompt? {
        get { if case .commandLine(let prompt) = overlay { prompt } else { nil } }
        set { overlay = newValue.map { .commandLine($0) } ?? .none }
    }

    /// The question on the status line, while it waits for its answer.
    var confirmation: Confirmation? {
        get { if case .confirmation(let confirmation) = overlay { confirmation } else { nil } }
        set { overlay = newValue.map { .confirmation($0) } ?? .none }
    }
}
