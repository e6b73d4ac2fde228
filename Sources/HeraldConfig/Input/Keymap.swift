/// The keys in force: the action table's defaults, changed by the config file's `bind` and
/// `unbind` lines. Key handling, the hint line, the `?` help and `herald --help` all read it,
/// so they follow the user's bindings.
///
/// A binding is a key (`j`) or a sequence of keys (`g g`, see `KeySequence`). A key never
/// both does an action and begins a sequence on the same screen: binding one takes the
/// other off there (`bind(sequence:to:on:)` says which).
public struct Keymap: Sendable {
    /// The bindings, in the order the help lists them.
    public private(set) var bindings: [ActionBinding]
    private var lookup: [ScreenKind: [Key: Action]] = [:]
    private var sequenceLookup: [ScreenKind: [[Key]: Action]] = [:]
    /// Every proper beginning of a sequence, by screen (`[g]` for `g g`).
    private var prefixes: [ScreenKind: Set<[Key]>] = [:]
    private var hints: [ScreenKind: String] = [:]

    /// The action table as it ships.
    public static let standard = Keymap(bindings: ActionTable.bindings)

    public init(bindings: [ActionBinding]) {
        self.bindings = bindings
        rebuild()
    }

    /// What `key` does on `screen`, if anything.
    public func action(for key: Key, on screen: ScreenKind) -> Action? { lookup[screen]?[key] }

    /// What a whole sequence does on `screen` (a one-key sequence is a key).
    public func action(for keys: [Key], on screen: ScreenKind) -> Action? {
        keys.count == 1 ? action(for: keys[0], on: screen) : sequenceLookup[screen]?[keys]
    }

    /// True when `keys` begin a longer sequence on `screen` (more keys are to come).
    public func isPrefix(_ keys: [Key], on screen: ScreenKind) -> Bool {
        prefixes[screen]?.contains(keys) ?? false
    }

    /// True when `key` begins a sequence on `screen`.
    public func startsSequence(_ key: Key, on screen: ScreenKind) -> Bool { isPrefix([key], on: screen) }

    /// The sequences that go on from `keys` on `screen`, with their actions (for the status
    /// line while a sequence waits for its next key).
    public func continuations(of keys: [Key], on screen: ScreenKind) -> [(keys: [Key], action: Action)] {
        (sequenceLookup[screen] ?? [:]).filter {
            $0.key.count > keys.count && Array($0.key.prefix(keys.count)) == keys
        }
        .map { (keys: $0.key, action: $0.value) }
        .sorted { KeySequence.label($0.keys) < KeySequence.label($1.keys) }
    }

    /// The bindings of a screen (its own first, then the global ones), as the help lists them.
    public func bindings(on screen: ScreenKind) -> (own: [ActionBinding], global: [ActionBinding]) {
        (
            bindings.filter { $0.screens.contains(screen) && $0.isBound },
            bindings.filter { $0.isGlobal && $0.isBound }
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

    /// What `key` does on the other screens when it does nothing on `screen`, for the
    /// message of an unbound key: "article list (next feed), article (next article of the
    /// list)" for `J` on the feed list; nil when it does nothing anywhere.
    public func elsewhere(_ key: Key, from screen: ScreenKind) -> String? {
        guard action(for: key, on: screen) == nil else { return nil }
        let places = ScreenKind.allCases.compactMap { other -> String? in
            guard other != screen, let action = action(for: key, on: other),
                let binding = bindings.first(where: { $0.action == action && $0.keys.contains(key) })
            else { return nil }
            return "\(other.title) (\(binding.summary))"
        }
        return places.isEmpty ? nil : places.joined(separator: ", ")
    }

    /// Makes `key` do `action` on `screens` (every screen the action works on when nil),
    /// taking the key from whatever it did there. False when the action works on none of
    /// `screens`.
    @discardableResult
    public mutating func bind(_ key: Key, to action: Action, on screens: [ScreenKind]? = nil) -> Bool {
        bind(sequence: [key], to: action, on: screens) != nil
    }

    /// Makes a key or a sequence of keys do `action` on `screens` (every screen the action
    /// works on when nil). What clashed with it there (a key it begins with, a sequence that
    /// begins with it) is taken off and returned; nil when the action works on none of
    /// `screens`.
    public mutating func bind(sequence keys: [Key], to action: Action, on screens: [ScreenKind]? = nil)
        -> [KeyClash]?
    {
        guard !keys.isEmpty else { return nil }
        let home = bindings.filter { $0.action == action }
        let reach = Set(home.flatMap { $0.isGlobal ? ScreenKind.allCases : $0.screens })
        var targets = screens.map { Set($0).intersection(reach) } ?? reach
        // The search prompt takes characters as text: a sequence of them never reaches it.
        if keys.count > 1, case .character = keys[0] { targets.remove(.search) }
        guard !targets.isEmpty else { return nil }
        let clashes = self.clashes(keys, on: targets)
        for clash in clashes { unbind(sequence: clash.keys, on: clash.screens) }
        unbind(sequence: keys, on: home.contains(where: \.isGlobal) && screens == nil ? nil : Array(targets))
        if let index = bindings.firstIndex(where: {
            $0.action == action && ($0.isGlobal || !targets.isDisjoint(with: $0.screens))
        }), bindings[index].isGlobal || targets.isSubset(of: Set(bindings[index].screens)) {
            bindings[index].insert(keys)
        } else if keys.count > 1,
            case let rows = bindings.indices.filter({
                bindings[$0].action == action && Set(bindings[$0].screens).isSubset(of: targets)
            }),
            Set(rows.flatMap { bindings[$0].screens }) == targets
        {
            // A sequence goes with the action's keys wherever they are (`g g, Home`).
            for index in rows { bindings[index].insert(keys) }
        } else {
            let summary = home.first?.summary ?? action.rawValue
            var binding = ActionBinding(action, [], on: ScreenKind.allCases.filter(targets.contains), summary)
            binding.insert(keys)
            bindings.append(binding)
        }
        rebuild()
        return clashes
    }

    /// The keys and sequences that clash with `keys` on `screens`: one is a proper beginning
    /// of the other.
    func clashes(_ keys: [Key], on screens: Set<ScreenKind>) -> [KeyClash] {
        var found: [KeyClash] = []
        for binding in bindings {
            let covered = Set(binding.isGlobal ? ScreenKind.allCases : binding.screens).intersection(screens)
            guard !covered.isEmpty else { continue }
            for other in binding.keys.map({ [$0] }) + binding.sequences where other != keys {
                let shorter = min(other.count, keys.count)
                guard Array(other.prefix(shorter)) == Array(keys.prefix(shorter)) else { continue }
                found.append(
                    KeyClash(
                        keys: other, action: binding.action,
                        screens: ScreenKind.allCases.filter(covered.contains)))
            }
        }
        return found
    }

    /// Takes `key` off every binding on `screens` (everywhere when nil). A binding on more
    /// screens than that keeps the key on the others.
    public mutating func unbind(_ key: Key, on screens: [ScreenKind]? = nil) {
        unbind(sequence: [key], on: screens)
    }

    /// Takes a key or a sequence off every binding on `screens` (everywhere when nil).
    public mutating func unbind(sequence keys: [Key], on screens: [ScreenKind]? = nil) {
        var result: [ActionBinding] = []
        for binding in bindings {
            guard binding.contains(keys) else {
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
            without.remove(keys)
            if binding.isGlobal { without.screens = [] }
            result.append(without)
            if !kept.isEmpty, !binding.isGlobal || screens != nil {
                // The key stays where it was not unbound.
                var rest = binding
                rest.screens = kept
                rest.keys = []
                rest.sequences = []
                rest.insert(keys)
                rest.hint = nil
                result.append(rest)
            }
        }
        bindings = result
        rebuild()
    }

    private mutating func rebuild() {
        var table: [ScreenKind: [Key: Action]] = [:]
        var sequenceTable: [ScreenKind: [[Key]: Action]] = [:]
        var beginnings: [ScreenKind: Set<[Key]>] = [:]
        for screen in ScreenKind.allCases {
            var keys: [Key: Action] = [:]
            var sequences: [[Key]: Action] = [:]
            for binding in bindings where binding.isGlobal {
                for key in binding.keys { keys[key] = binding.action }
                for sequence in binding.sequences { sequences[sequence] = binding.action }
            }
            for binding in bindings where binding.screens.contains(screen) {
                for key in binding.keys { keys[key] = binding.action }
                for sequence in binding.sequences { sequences[sequence] = binding.action }
            }
            table[screen] = keys
            sequenceTable[screen] = sequences
            beginnings[screen] = Set(
                sequences.keys.flatMap { sequence in (1..<sequence.count).map { Array(sequence.prefix($0)) } }
            )
        }
        lookup = table
        sequenceLookup = sequenceTable
        prefixes = beginnings
        let map = self
        hints = Dictionary(
            uniqueKeysWithValues: ScreenKind.allCases.map { ($0, ActionTable.makeHint(map, $0)) })
    }
}

/// A binding taken off because a new one clashed with it (`g` when `g g` was bound).
public struct KeyClash: Sendable, Hashable {
    public var keys: [Key]
    public var action: Action
    public var screens: [ScreenKind]
}
