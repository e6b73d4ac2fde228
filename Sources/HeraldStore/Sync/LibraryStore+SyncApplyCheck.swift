import HeraldCore

/// Whether applying the merged state could change anything: applying looks up the flags of
/// every article here and counts the states that wait (tens of ms with a few hundred
/// thousand), and the open reader syncs after every change, so a sync that brought nothing
/// new skips it.
extension LibraryStore {
    /// What applying depends on besides the state itself: the newest article (an article
    /// that arrives may be the one a pending flag waits for) and the feeds (one subscribed
    /// again has a new id). Equal signatures: nothing arrived since the last apply.
    public func syncApplySignature() throws -> String {
        let row = try db.prepare(
            """
            SELECT (SELECT ifnull(max(id), 0) FROM articles) || '/' || count(*) || '/' || ifnull(max(id), 0)
            FROM feeds
            """
        )
        .firstRow { $0.text(0) }
        return (row ?? nil) ?? ""
    }
}
