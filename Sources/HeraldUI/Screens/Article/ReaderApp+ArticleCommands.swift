import Foundation
import HeraldCore
import HeraldConfig

/// What newsboat users do to an article, from the article or its row: save it (`s`), pipe it
/// to a command (`|`), bookmark it (Ctrl-B), open a link by number (`#`, a digit), open its
/// link and mark it read (`O`), a random unread article (Ctrl-K).
extension ReaderApp {
    /// Acts on the article on screen: the open article, or the selected row's or search
    /// result's (read first).
    func withCurrentArticle(_ act: @escaping @MainActor (Article, RichText) -> Void) {
        switch screen {
        case .article(let model):
            guard let article = model.state.value else {
                message = "The article is still loading."
                return
            }
            act(article, model.body)
        case .articles(let list):
            guard let summary = list.selected else {
                message = "No article is selected."
                return
            }
            withArticle(summary, act)
        case .search(let search):
            guard let hit = search.selected else {
                message = "No result is selected."
                return
            }
            withArticle(hit.article, act)
        default:
            message = "Open an article (or select one in a list) first."
        }
    }

    /// The article's actions that the article view and its row share.
    func performOnArticle(_ action: Action) {
        switch action {
        case .save:
            withCurrentArticle { article, _ in
                let folder = self.settings.savePath ?? "~"
                self.openCommandLine(with: "save \(folder.hasSuffix("/") ? folder : folder + "/")"
                    + ArticleText.fileName(for: article.summary.title))
            }
        case .pipeTo: openCommandLine(with: "pipe-to ")
        case .gotoURL: openCommandLine(with: "link ")
        case .openInBrowserAndMarkRead:
            withCurrentArticle { article, body in
                self.performOnLinks(of: article, body: body, .openInBrowser, count: nil)
                let summary = self.flags.shown(article.summary)
                if !summary.isRead { self.writes.setRead(true, summary) }
            }
        case .bookmark: bookmark()
        case .enqueue: withCurrentArticle { article, _ in self.enqueue(article) }
        default: unavailable(action)
        }
    }

    /// `:save FILE`: the article as text, written off the main actor; an existing file is
    /// overwritten only when the user says so.
    func save(to path: String, overwrite: Bool = false) {
        let file = ArticleText.expandingHome(path)
        withCurrentArticle { article, body in
            let text = ArticleText.plain(article, body: body, width: self.settings.textWidth > 0 ? self.settings.textWidth : 80, theme: self.theme)
            self.write(text, to: file, overwrite: overwrite, saved: "Saved to \(file)", failed: "Could not save to \(file)") {
                self.save(to: path, overwrite: true)
            }
        }
    }

    /// Writes text to a file off the main actor, then says so; a file that is there already
    /// asks first, and `again` writes over it when the user says yes.
    func write(
        _ text: String, to file: String, overwrite: Bool, saved: String, failed: String,
        again: @escaping @MainActor () -> Void
    ) {
        work.start {
            let result = await Task.detached { ArticleText.write(text, to: file, overwrite: overwrite) }.value
            switch result {
            case .saved: self.message = saved
            case .exists: self.confirmation = Confirmation(question: "\(file) exists: overwrite it? (y/n)", action: again)
            case .failed(let why): self.message = "\(failed): \(why)"
            }
            self.onChange()
        }
    }

    /// `:pipe-to COMMAND`: the article as text on the command's standard input; the command
    /// has the terminal (a pager) until it exits.
    func pipe(to command: String) {
        withCurrentArticle { article, body in
            guard let programs = self.programs else {
                self.message = "pipe-to needs a terminal session."
                return
            }
            let text = ArticleText.plain(article, body: body, width: self.size.width, theme: self.theme)
            self.message = programs.pipe(text, to: command).map { "pipe-to: \($0)" }
        }
    }

    /// Ctrl-B: `bookmark-cmd` with the link, the title, a description (empty, as newsboat's
    /// when it does not ask) and the feed's title as arguments, waited for off the main actor.
    private func bookmark() {
        guard let command = settings.bookmarkCommand else {
            message = "Set bookmark-cmd in the config to bookmark (the link and title are its arguments)."
            return
        }
        let link: (Article) -> String? = { $0.link }
        let act: @MainActor (String?, String, String) -> Void = { url, title, feed in
            guard let url, !url.isEmpty else {
                self.message = "This has no link to bookmark."
                return
            }
            guard let programs = self.programs else {
                self.message = "bookmark-cmd runs in a terminal session."
                return
            }
            self.work.start {
                let failure = await programs.bookmark(command, arguments: [url, title, "", feed])
                self.message = failure.map { "bookmark-cmd: \($0)" } ?? "Bookmarked \(url)"
                self.onChange()
            }
        }
        if case .links(let links) = screen, let selected = links.selected {
            act(selected.url, links.title, "")
            return
        }
        withCurrentArticle { article, _ in act(link(article), article.summary.title, article.feedTitle) }
    }

    /// Ctrl-K: a random unread article of every feed, opened over this screen (in place of
    /// an open article).
    func openRandomUnread() {
        guard let effects = screen.model.ownedEffects else { return }
        effects.run(.step, while: .onTop) { [repository] in
            await Result { () async throws -> ArticleSummary? in
                let unread = try await repository.counts(in: .unread).unread
                guard unread > 0 else { return nil }
                let row = Int.random(in: 0..<unread)
                return try await repository.articles(in: .unread, page: .offset(row, limit: 1)).first
            }
        } then: { read in
            switch read {
            case .success(let summary?):
                if case .article = self.screen { self.pop() }
                self.openArticle(summary)
            case .success(nil): self.message = "No unread articles."
            case .failure(let error): self.message = "Could not read the unread articles: \(error)"
            }
        }
    }

    /// Opens the command line with its text begun (`s`, `|`, `#`, a digit).
    func openCommandLine(with text: String) {
        var prompt = CommandPrompt()
        prompt.text = text
        commandPrompt = prompt
    }
}

/// An article as plain text: its header fields and its text, as the article view lays them
/// out (`s`, `|`), and where such text is saved.
enum ArticleText {
    /// The header and the text wrapped to `width`, lines ending in newlines.
    @MainActor
    static func plain(_ article: Article, body: RichText, width: Int, theme: Theme) -> String {
        var out = ""
        for field in ArticleViewModel.headerFields(of: article, theme: theme) {
            guard let value = field.value, !value.isEmpty else { continue }
            let label = field.label.padding(toLength: ArticleLine.labelWidth, withPad: " ", startingAt: 0)
            out += label + TextSanitizer.singleLine(value) + "\n"
        }
        out += "\n"
        for (line, _) in RichLayout.anchoredLines(body, width: max(width, 20)) {
            out += line.spans.map(\.text).joined() + "\n"
        }
        return out
    }

    /// A file name from a title: letters and digits kept, every run of anything else one
    /// `_`, at most 80 characters, `.txt` after (never a path, never hidden, never an option).
    static func fileName(for title: String) -> String {
        var name = ""
        for character in title {
            if character.isLetter || character.isNumber {
                name.append(character)
            } else if !name.isEmpty, name.last != "_" {
                name.append("_")
            }
            if name.count >= 80 { break }
        }
        while name.last == "_" { name.removeLast() }
        return (name.isEmpty ? "article" : name) + ".txt"
    }

    /// `~/…` in the home.
    static func expandingHome(_ path: String) -> String { HomeFolder.expanding(path) }

    enum Written: Sendable { case saved, exists, failed(String) }

    /// Writes the text; an existing file only when `overwrite`.
    static func write(_ text: String, to path: String, overwrite: Bool) -> Written {
        if !overwrite, FileManager.default.fileExists(atPath: path) { return .exists }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return .saved
        } catch {
            return .failed((error as NSError).localizedDescription)
        }
    }
}
