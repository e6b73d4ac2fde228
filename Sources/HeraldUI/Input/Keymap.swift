/// The keys in force: the action table's defaults, changed by the config file's `bind` and
/// `unbind` lines. Key handling, the hint line, the `?` help and `herald --help` all read it,
/// so they follow the user's bindings.
public struct Keymap: Sendable {
    /// The bindings, in the order the help lists them.
    public private(set) var bindings: [ActionBinding]
    private var lookup: [ScreenKind: [Key: Action]] = [:]
    private var hints: [ScreenKind: String] = [:]

    /// The action table as it ships.
    public static let standard = Keymap(bindings: ActionTable.bindings)

    public init(bindings: [ActionBinding]) {
        self.bindings = bindings
        rebuild()
    }

    /// What `key` does on `screen`, if anything.
    public func action(for key: Key, on screen: ScreenKind) -> Action? { lookup[screen]?[key] }

    /// The bindings of a screen (its own first, then the global ones), as the help lists them.
    public func bindings(on screen: ScreenKind) -> (own: [ActionBinding], global: [ActionBinding]) {
        (
            bindings.filter { $0.screens.contains(screen) && !$0.keys.isEmpty },
            bindings.filter { $0.isGlobal && !$0.keys.isEmpty }
        )
    }

    /// The key hint line of a screen (see `ActionTable.makeHint`).
    public func hint(for screen: ScreenKind) -> String { hints[screen] ?? "" }

    /// The first key that does `action` on `screen`, for messages that name a key.
    public func key(for action: Action, on screen: ScreenKind) -> Key? {
        bindings.first {
            ($0.isGlobal || $0.screens.contains(screen)) && $0.action == action && !$0.keys.isEmpty
        }?
        .keys.first
    }

    /// Makes `key` do `action` on `screens` (every screen the action works on when nil),
    /// taking the key from whatever it did there. False when the action works on none of
    /// `screens`.
    @discardableResult
    public mutating func bind(_ key: Key, to action: Action, on screens: [ScreenKind]? = nil) -> Bool {
        let home = bindings.filter { $0.action == action }
        let reach = Set(home.flatMap { $0.isGlobal ? ScreenKind.allCases : $0.screens })
        let targets = screens.map { Set($0).intersection(reach) } ?? reach
        guard !targets.isEmpty else { return false }
        unbind(key, on: home.contains(where: \.isGlobal) && screens == nil ? nil : Array(targets))
        if let index = bindings.firstIndex(where: {
            $0.action == action && ($0.isGlobal || !targets.isDisjoint(with: $0.screens))
        }), bindings[index].isGlobal || targets.isSubset(of: Set(bindings[index].screens)) {
            bindings[index].keys.insert(key, at: 0)
        } else {
            let summary = home.first?.summary ?? action.rawValue
            bindings.append(
                ActionBinding(action, [key], on: ScreenKind.allCases.filter(targets.contains), summary))
        }
        rebuild()
        return true
    }

    /// Takes `key` off every binding on `screens` (everywhere when nil). A binding on more
    /// screens than that keeps the key on the others.
    public mutating func unbind(_ key: Key, on screens: [ScreenKind]? = nil) {
        var result: [ActionBinding] = []
        for binding in bindings {
            guard binding.keys.contains(key) else {
                result.append(binding)
                continue
            }
            let covered = binding.isGlobal ? ScreenKind.allCases : binding.screens
            let affected = screens.map { Set(covered).intersection($0) } ?? Set(covered)
            if affected.isEmpty {
                result.append(binding)
                continue
            }
            let kept = covered.filter { !affected.contains($0) }
            var without = binding
            without.keys.removeAll { $0 == key }
            if binding.isGlobal { without.screens = [] }
            result.append(without)
            if !kept.isEmpty, !binding.isGlobal || screens != nil {
                // The key stays where it was not unbound.
                var rest = binding
                rest.screens = kept
                rest.keys = [key]
                rest.hint = nil
                result.append(rest)
            }
        }
        bindings = result
        rebuild()
    }

    private mutating func rebuild() {
        var table: [ScreenKind: [Key: Action]] = [:]
        for screen in ScreenKind.allCases {
            var keys: [Key: Action] = [:]
            for binding in bindings where binding.isGlobal {
                for key in binding.keys { keys[key] = binding.action }
            }
            for binding in bindings where binding.screens.contains(screen) {
                for key in binding.keys { keys[key] = binding.action }
            }
            table[screen] = keys
        }
        lookup = table
        let map = self
        hints = Dictionary(
            uniqueKeysWithValues: ScreenKind.allCases.map { ($0, ActionTable.makeHint(map, $0)) })
    }
}
