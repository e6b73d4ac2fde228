public import HeraldConfig

extension ReaderApp {
    /// What takes the keys before the screen on top does: one mode at a time, as one value.
    enum Overlay {
        /// No mode: keys go through the keymap to the screen on top.
        case none
        /// The first keys of a sequence (the `g` of `g g`).
        case typing(keys: [Key])
        /// `,` was pressed: the next key names a macro.
        case macro
        /// A yes/no question on the status line: `y` runs the action, any other key cancels.
        case confirmation(Confirmation)
        /// The `:` command line.
        case commandLine(CommandPrompt)
    }

    /// The keys typed so far of a key sequence (the `g` of `g g`), shown on the status line.
    public internal(set) var pendingKeys: [Key] {
        get { if case .typing(let keys) = overlay { keys } else { [] } }
        set {
            // Keys are pending only where keys are typed: the command line and a question stay.
            switch overlay {
            case .none, .typing: overlay = newValue.isEmpty ? .none : .typing(keys: newValue)
            case .macro, .confirmation, .commandLine: break
            }
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
