import HeraldCore
import HeraldConfig

/// `x`: the whole article from its web page, in place of the feed's text.
extension ReaderApp {
    /// On an article: fetches its page when it has none yet (or the last try failed), else
    /// switches between the page's article and the feed's text. On a row: the same, then
    /// opens the article. The page is read in the background: keys answer meanwhile.
    func fullArticle() {
        guard let pages else {
            message = "Whole articles are read into a library (herald without --feeds)."
            return
        }
        switch screen {
        case .article(let viewer):
            guard let article = viewer.state.value else {
                message = "The article is still loading."
                return
            }
            let showing = article.full?.state == .whole && article.full?.shown == true
            readPage(of: article, show: !showing, pages: pages) {
                // Also under another screen (the help): back on top, it shows what was read.
                if self.stack.contains(where: { $0.model === viewer }) { viewer.reload() }
            }
        case .articles, .search:
            let list = screen.model
            withCurrentArticle { article, _ in
                self.readPage(of: article, show: true, pages: pages) {
                    // Over the list x was pressed on only: a screen opened meanwhile stays.
                    if self.screen.model === list { self.openArticle(article.summary) }
                }
            }
        default:
            unavailable(.fullArticle)
        }
    }

    /// Shows the page's article (`show`; fetching the page first when it has none) or the
    /// feed's text, then `done`.
    private func readPage(
        of article: Article, show: Bool, pages: any PageReading, done: @escaping @MainActor () -> Void
    ) {
        let id = article.id
        if article.full?.state == .whole || !show {
            work.start {
                do {
                    try await pages.setFullArticleShown(show, articleID: id)
                    self.message =
                        show ? "The whole article, from its web page (x: the feed's text)." : "The feed's text (x: the whole article)."
                    done()
                } catch {
                    self.message = "Could not switch: \(error)"
                }
            }
            return
        }
        guard let link = article.link, !link.isEmpty else {
            message = "This article has no web page to read."
            return
        }
        message = "Reading \(TextSanitizer.singleLine(link)) …"
        work.start {
            do {
                let full = try await pages.fetchFullArticle(articleID: id)
                switch full?.state {
                case .whole?: self.message = "The whole article, from its web page (x: the feed's text)."
                case .failed?: self.message = "The feed's text stays: \(full?.note ?? "the page gave no article")."
                case nil: self.message = "This article has no web page to read."
                }
                done()
            } catch {
                self.message = "Could not read the page: \(error)"
            }
        }
    }
}
