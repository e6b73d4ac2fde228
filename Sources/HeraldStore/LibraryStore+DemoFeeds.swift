/// The bundled demo feeds fill a brand-new library so the reader has something to show;
/// they are marked (`feeds.demo = 1`) so that they can leave once the user has feeds of
/// their own.
extension LibraryStore {
    /// The URLs of the demo feeds still in the library, in feed-list order.
    public func demoFeedURLs() throws -> [String] {
        let statement = try db.prepare("SELECT url FROM feeds WHERE demo = 1 ORDER BY position, id")
        var urls: [String] = []
        while try statement.step() { urls.append(statement.text(0) ?? "") }
        return urls
    }

    /// Removes the demo feeds with their articles and search entries; returns how many went.
    /// A demo feed holding an article the user starred stays, as a feed of theirs: nothing
    /// but the user's own key deletes a starred article.
    ///
    /// The library stays initialized (even a brand-new one, when asked to before it was
    /// ever filled), so the demo never comes back uninvited.
    @discardableResult
    public func removeDemoFeeds() throws -> Int {
        try markInitialized()
        var removed = 0
        for url in try demoFeedURLs() {
            if let starred = try starredCount(url: url), starred > 0 {
                try db.prepare("UPDATE feeds SET demo = 0 WHERE url = ?1").bind(.text(url)).run()
            } else if try unsubscribe(url: url) {
                removed += 1
            }
        }
        return removed
    }
}
