import HeraldCore

/// What the reader says of a directive it applies, and the part of the directive it is
/// about: `ConfigFile.parse` diagnoses it at the column of that part's word.
public struct DirectiveProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case keys, screens, setting, value, element, pattern
        /// The filter's expression, at this column of it (1-based).
        case expression(column: Int)
        /// The printed line as a whole: a built filter whose expression does not read back
        /// from it (a line the reader read always does).
        case line
    }

    public var part: Part
    public var message: String

    public var description: String { message }
}

extension ReaderConfig {
    /// Makes `directive` take effect, as the config file's line would; what the reader
    /// says of it, in the words `herald config check` prints (empty: it took effect as it
    /// is). A bind that takes a clashing binding off still takes effect, and says so; any
    /// other problem leaves the config as it was.
    ///
    /// The one place that decides whether a directive is right: `ConfigFile.parse` applies
    /// each line it reads through here, and `herald import-newsboat` the directives it built.
    @discardableResult
    public mutating func apply(_ directive: ConfigDirective) -> [DirectiveProblem] {
        switch directive {
        case .bind(let keys, let action, let screens):
            if let problem = Self.unnamed(keys) { return [problem] }
            guard let clashes = keymap.bind(sequence: keys, to: action, on: screens) else {
                let named = screens?.map(\.rawValue).joined(separator: ", ") ?? ""
                return [
                    DirectiveProblem(part: .screens, message: "`\(action.rawValue)` does nothing on \(named)")
                ]
            }
            return clashes.map { DirectiveProblem(part: .keys, message: KeyName.clash(keys, $0)) }
        case .unbind(let keys, let screens):
            if let problem = Self.unnamed(keys) { return [problem] }
            keymap.unbind(sequence: keys, on: screens)
        case .set(let name, let value):
            let spec: Settings.Spec
            switch Settings.spec(named: name) {
            case .success(let found): spec = found
            case .failure(let error): return [DirectiveProblem(part: .setting, message: error.message)]
            }
            if let problem = settings.set(spec, value) {
                return [DirectiveProblem(part: .value, message: "`\(value)`: \(problem)")]
            }
        case .color(let element, let style):
            if let unknown = ConfigFile.unknownElement(element) {
                return [DirectiveProblem(part: .element, message: unknown.message)]
            }
            colors[element] = style
        case .highlight(let pattern, let style, let target):
            do {
                let highlight = try TitleHighlight(pattern: pattern, style: style)
                if target != .article { highlights.append(highlight) }
                if target != .titles { textHighlights.append(highlight) }
            } catch {
                return [DirectiveProblem(part: .pattern, message: error.message)]
            }
        case .filter(let text, let action):
            if let problem = Self.readBack(directive) { return [problem] }
            do {
                filters.append(QueryFilter(query: try ArticleQuery.parse(text), action: action))
            } catch {
                return [
                    DirectiveProblem(
                        part: .expression(column: error.column), message: "query: \(error.message)")
                ]
            }
        case .macro(let macro):
            if let problem = Self.unnamed([macro.key]) { return [problem] }
            // Each set step is checked as a set line would be, on a copy: the macro changes
            // the settings only when it runs.
            var trial = settings
            for case .set(let name, let value) in macro.steps {
                switch Settings.spec(named: name) {
                case .success(let spec):
                    if let problem = trial.set(spec, value) {
                        return [DirectiveProblem(part: .value, message: "set \(name) `\(value)`: \(problem)")]
                    }
                case .failure(let error): return [DirectiveProblem(part: .setting, message: error.message)]
                }
            }
            macros[macro.key] = macro
        }
        return []
    }

    /// The problem of keys the config file cannot name (a character `KeyName` does not read,
    /// no key at all): the line would not read back.
    private static func unnamed(_ keys: [Key]) -> DirectiveProblem? {
        let name = keys.map(KeyName.name(of:)).joined(separator: " ")
        guard KeyName.parseSequence(name) != keys else { return nil }
        return DirectiveProblem(part: .keys, message: "unknown key `\(name)`" + KeyName.help)
    }

    /// What the reader says of a filter's printed line when it does not read back to the
    /// filter: its expression is printed as it stands, so a quote it leaves open or a word
    /// of it that starts with `#` (a comment) changes the line.
    private static func readBack(_ filter: ConfigDirective) -> DirectiveProblem? {
        let line = filter.line
        let words: [Word]
        switch Word.split(line) {
        case .success(let split): words = split
        case .failure(let error): return DirectiveProblem(part: .line, message: error.message)
        }
        // The line starts with `filter`: it has a first word.
        guard let first = words.first else { return nil }
        switch ConfigFile.filterDirective(Array(words.dropFirst()), after: first, line: line) {
        case .failure(let mistake): return DirectiveProblem(part: .line, message: mistake.message)
        case .success(let (read, _)) where read != filter:
            // What the reader says of the filter the line reads as, as it would say it.
            var scratch = ReaderConfig()
            let message =
                scratch.apply(read).first?.message
                ?? "`\(line)` reads back as `\(read.line)` (a word starting with # begins a comment)"
            return DirectiveProblem(part: .line, message: message)
        case .success: return nil
        }
    }
}
