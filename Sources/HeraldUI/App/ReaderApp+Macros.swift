import HeraldConfig

/// Macros (newsboat's): `,` then a key runs the config's steps for it, in order.
extension ReaderApp {
    /// `,`: waits for a macro's key, listing the macros on the status line.
    func openMacroPrefix() {
        guard !macros.isEmpty else {
            message = "No macros: add one to the config, e.g. macro v set browser mpv ; open-in-browser"
            return
        }
        overlay = .macro
        message =
            "macro: "
            + macros.values.sorted { $0.key.label < $1.key.label }
            .map { "\($0.key.label):\($0.description ?? $0.steps.map(\.name).joined(separator: ","))" }
            .joined(separator: "  ")
    }

    /// The key after `,`: its macro's steps run one after another, each once the work the one
    /// before started on the screens has ended (an `open` has read its article before the next
    /// step acts on it), as newsboat runs them.
    func runMacro(_ key: Key) {
        guard let macro = macros[key] else {
            message = "No macro on \(key.label) (cancelled)"
            return
        }
        work.start {
            for step in macro.steps {
                switch step {
                case .action(let action): self.perform(action, count: nil)
                case .set(let name, let value): self.run("set \(ConfigFile.word(name)) \(ConfigFile.word(value))")
                }
                self.onChange()
                await self.screensSettled()
                if self.isFinished { return }
            }
        }
    }

    /// Returns once no screen on the stack has work under way.
    private func screensSettled() async {
        while let busy = stack.lazy.compactMap(\.model.ownedEffects).first(where: { $0.count > 0 }) {
            await busy.idle()
        }
    }
}

extension Macro.Step {
    /// The step's name, for the status line.
    var name: String {
        switch self {
        case .action(let action): action.rawValue
        case .set(let setting, _): "set " + setting
        }
    }
}
