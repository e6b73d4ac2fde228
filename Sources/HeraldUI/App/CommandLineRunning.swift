import HeraldCore
import HeraldConfig

/// The `:` command line: opened by `:`, edited like the search prompt, run by Enter.
extension ReaderApp {
    func openCommandLine() {
        commandPrompt = CommandPrompt()
        message = nil
    }

    /// A key while the command line is open.
    func commandLineKey(_ key: Key) {
        guard var prompt = commandPrompt else { return }
        switch key {
        case .escape:
            commandPrompt = nil
            return
        case .backspace where prompt.text.isEmpty:
            commandPrompt = nil
            return
        case .enter:
            commandPrompt = nil
            let line = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { return }
            if commandHistory.last != line { commandHistory.append(line) }
            run(line)
            return
        case .tab:
            (prompt.text, prompt.candidates) = ColonCommand.complete(prompt.text)
        case .up, .down:
            prompt.recall(older: key == .up, in: commandHistory)
        default:
            // Edited in place: the prompt is taken out of the app first, so its text has one
            // owner and a paste appends to it instead of copying it per character.
            commandPrompt = nil
            switch QueryEditing.apply(key, to: &prompt.text) {
            case .notAnEdit, .unchanged: break
            case .full: message = QueryEditing.fullMessage
            case .changed:
                prompt.candidates = []
                prompt.recalled = nil
            }
        }
        commandPrompt = prompt
    }

    /// Runs a command line; a mistake is said on the status line.
    func run(_ line: String) {
        let command: ColonCommand
        switch ColonCommand.parse(line) {
        case .success(let parsed): command = parsed
        case .failure(let error):
            message = ":\(Self.shortened(line)): \(error)"
            return
        }
        switch command {
        case .flag(let flag, let value, let target):
            guard let write = bulkWrite(flag, value, target) else { return }
            writes.bulk(flag, value, write)
        case .undo: writes.undo()
        case .reload: reloads.start(only: nil)
        case .quit: isFinished = true
        case .help: push(.page(Self.commandHelpPage))
        case .row(let number):
            // A row past the end is said, as the feed list says a feed past the last.
            if case .articles(let list) = screen, number > list.count {
                message = "No row \(number): the list has \(list.count)."
                return
            }
            perform(.top, count: number)
        case .save(let path): save(to: path)
        case .pipeTo(let command): pipe(to: command)
        case .link(let number):
            withCurrentArticle { article, body in
                self.performOnLinks(of: article, body: body, .openInBrowser, count: number)
            }
        case .tag(let name): openTag(name)
        case .goto(let text): gotoFeed(containing: text)
        case .source(let path): source(path)
        case .dumpConfig(let path): dumpConfig(to: path)
        case .podcasts: showDownloads()
        case .set(let name, let value):
            guard let spec = Settings.specs.first(where: { $0.name == name }) else { return }
            var changed = settings
            if let problem = changed.set(spec, value) {
                message = ":set \(name): `\(Settings.isSecret(name) ? "…" : value)`: \(problem)"
            } else {
                settings = changed
                configLines.append(ConfigDirective.set(setting: name, value: value).line)
                onSettingsChange(changed)
                applyDisplaySettings()
                if name == "reload-interval" { reloads.startTimer() }
                if name == "sync-dir" { sync.start() }
                let shown = Settings.isSecret(name) ? "set" : "\(value)"
                message = "\(name) is \(shown) for this session (the config file keeps it)"
            }
        }
    }

    /// The one place a flag command's target becomes a write: the list on screen, or (with
    /// the query language) a query. Nil after saying why there is nothing to write.
    func bulkWrite(_ flag: ArticleFlag, _ value: Bool, _ target: BulkTarget) -> BulkWrite? {
        switch target {
        case .list:
            guard let list = listOnScreen else {
                message = "No list here: open a feed or a list (or select one) first."
                return nil
            }
            let source = list.source
            return BulkWrite(what: list.title) { try await $0.setFlag(flag, value, in: source) }
        case .query(let text):
            let source = ArticleSource.query(text)
            return BulkWrite(what: "the articles matching \(Self.shortened(text))") {
                try await $0.setFlag(flag, value, in: source)
            }
        }
    }

    /// A command line as the status line repeats it: a long one cut, so that what follows
    /// it (the error) shows.
    static func shortened(_ line: String) -> String {
        line.count > 40 ? line.prefix(30) + "…" : line
    }

    /// The list the user is in: the open article list (under an article too), or the row
    /// selected on the feed list.
    var listOnScreen: ArticleListSummary? {
        for screen in stack.reversed() {
            switch screen {
            case .articles(let list): return list.list
            case .feeds: return feedList.selected?.list
            case .search: return nil
            default: continue
            }
        }
        return nil
    }

    /// `:help`: the commands and their arguments.
    static var commandHelpPage: PageModel {
        var paragraphs: [PageModel.Paragraph] = [.init("", "Commands of the : command line", role: .heading)]
        paragraphs += CommandLineReference.entries.map { .init($0.usage, $0.summary) }
        paragraphs.append(
            .init(
                "",
                "Tab completes a command (and a setting after set), Up and Down recall the commands of this session, Esc cancels.",
                role: .note))
        paragraphs.append(.init("", "q or Esc closes this help.", role: .note))
        return PageModel(title: "Commands", paragraphs: paragraphs, labelWidth: 22)
    }
}
