public import HeraldCore

/// The tag view (`t`): every tag with the counts of its feeds.
@MainActor
public final class TagListModel {
    public let tags: [ArticleListSummary]
    public var cursor = ListCursor()

    public init(tags: [ArticleListSummary]) { self.tags = tags }

    public var selected: ArticleListSummary? {
        tags.indices.contains(cursor.selected) ? tags[cursor.selected] : nil
    }
}
