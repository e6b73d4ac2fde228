import HeraldCore
import HeraldConfig

/// The article view: its text, rewrapped to the window; `J`/`K` and Space go on through the
/// list it was opened from.
extension ArticleViewModel: ReaderScreen {
    var kind: ScreenKind { .article }
    var windowTitle: String? { summary.title }
    var ownedEffects: Effects? { effects }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        ArticleView(model: self, theme: app.theme, keymap: app.keymap, highlighter: app.textHighlighter)
            .draw(into: &canvas)
    }

    /// On top, the text rewraps: the scroll position stays within the new line count.
    func resized(in app: ReaderApp) {
        guard app.screen.model === self else { return }
        let count = lines(width: app.theme.readingColumn(width: app.size.width).width, theme: app.theme).count
        scroll(by: 0, lineCount: count, visible: app.bodyRows)
    }
}

/// The article's keys.
extension ArticleViewModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        let lines = self.lines(width: app.theme.readingColumn(width: app.size.width).width, theme: app.theme).count
        let visible = app.bodyRows
        switch action {
        case .down: self.scroll(by: count ?? 1, lineCount: lines, visible: visible)
        case .up: self.scroll(by: -(count ?? 1), lineCount: lines, visible: visible)
        case .pageDown: self.scroll(by: visible * (count ?? 1), lineCount: lines, visible: visible)
        case .pageUp: self.scroll(by: -visible * (count ?? 1), lineCount: lines, visible: visible)
        case .top: self.top = max(0, min((count ?? 1) - 1, lines - visible))
        case .bottom: self.scroll(by: lines, lineCount: lines, visible: visible)
        case .readOn:
            if self.isAtEnd(lineCount: lines, visible: visible), self.state.value != nil {
                app.nextUnread(from: self, .forward)
            } else {
                self.scroll(by: visible, lineCount: lines, visible: visible)
            }
        case .back: app.back()
        case .nextUnread: app.nextUnread(from: self, .forward)
        case .previousUnread: app.nextUnread(from: self, .backward)
        case .nextArticle: app.nextArticle(from: self, .forward)
        case .previousArticle: app.nextArticle(from: self, .backward)
        case .toggleRead: app.writes.setRead(!self.summary.isRead, self.summary)
        case .toggleStar: app.writes.setStarred(!self.summary.isStarred, self.summary)
        case .toggleSource:
            guard self.state.value != nil else {
                app.message = "The article is still loading."
                return
            }
            self.toggleSource()
            if self.showsSource {
                app.message =
                    self.state.value?.html == nil
                    ? "This article came as plain text: its source is its text (Ctrl-U: back)."
                    : "The article's HTML as fetched (Ctrl-U: its text)."
            }
        case .openInBrowser, .copyURL, .showLinks, .play:
            guard let article = self.state.value else {
                app.message = "The article is still loading."
                return
            }
            app.performOnLinks(of: article, body: self.body, action, count: count)
        default: app.unavailable(action)
        }
    }
}

/// What leaves the reader from an article or a row: links, media, the clipboard; and
/// opening an article over the list it was chosen from.
extension ReaderApp {
    /// `o` (the article's link; with a count, link N of the text), `y` (copy the article's
    /// link), `L` (every link) and `e` (play the media) for one article.
    func performOnLinks(of article: Article, body: RichText, _ action: Action, count: Int?) {
        let links = ArticleLink.all(of: article, body: body)
        switch action {
        case .openInBrowser:
            if let count {
                guard body.links.indices.contains(count - 1) else {
                    message =
                        body.links.isEmpty
                        ? "This article's text has no links."
                        : "No link \(count): the text has \(body.links.count)."
                    return
                }
                open(ArticleLink(kind: .text(count), url: body.links[count - 1]))
            } else if let link = article.link, !link.isEmpty {
                open(ArticleLink(kind: .article, url: link))
            } else if let first = links.first {
                open(first)
            } else {
                message = "This article has no link."
            }
        case .copyURL:
            guard let link = article.link ?? links.first?.url else {
                message = "This article has no link to copy."
                return
            }
            copy(link)
        case .showLinks:
            guard !links.isEmpty else {
                message = "This article has no links."
                return
            }
            push(.links(LinksModel(title: article.summary.title, links: links)))
        case .play:
            guard let media = links.first(where: \.isMedia) else {
                message = "This article has no podcast or video."
                return
            }
            open(media)
        default: unavailable(action)
        }
    }

    /// Reads an article (for keys on a list row that need its link), then acts on it, as an
    /// effect of the screen on top: nothing happens if the user has left it meanwhile.
    func withArticle(_ summary: ArticleSummary, _ act: @escaping @MainActor (Article, RichText) -> Void) {
        guard let effects = screen.model.ownedEffects else { return }
        effects.run(while: .onTop) { [repository] in
            await Result {
                let article = try await repository.article(id: summary.id)
                return (article, await ArticleProcessor.shared.richText(for: article))
            }
        } then: { read in
            switch read {
            case .success(let (article, body)): act(article, body)
            case .failure(let error): self.message = "Could not read the article: \(error)"
            }
        }
    }

    /// Opens an article on top of the list (or search) it was chosen from, marking it read.
    func openArticle(_ summary: ArticleSummary, highlight: String? = nil) {
        let viewer = ArticleViewModel(
            summary: summary, repository: repository, work: work, flags: flags, highlight: highlight)
        push(.article(viewer))
        viewer.load()
        if !flags.shown(summary).isRead { writes.setRead(true, summary) }
    }

    /// A link to the browser, or a media file to the player.
    func open(_ link: ArticleLink) {
        guard let programs else {
            message = "Links open in a terminal session: \(link.url)"
            return
        }
        let failure = link.isMedia ? programs.play(link.url) : programs.open(link.url)
        if let failure {
            message = "Could not open \(link.label): \(failure)"
        } else {
            message = "Opened \(link.label): \(link.url)"
        }
    }

    func copy(_ url: String) {
        guard let programs else {
            message = "The clipboard needs a terminal session: \(url)"
            return
        }
        message = programs.copy(url).map { "Could not copy: \($0)" } ?? "Copied \(url)"
    }
}
