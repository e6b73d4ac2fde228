public import Foundation
public import HeraldFetch

// A stand-in until the Tiny Tiny RSS client lands (a helper builds it in its own branch).
public actor TinyTinyRSSService: AccountService {
    public nonisolated let abilities = AccountAbilities(subscribe: true, unsubscribe: true)
    public init(base: URL, login: String, password: String, fetcher: FeedFetcher) {}
    public func logIn() async throws(AccountError) { throw .unsupported("not built") }
    public func feeds() async throws(AccountError) -> [RemoteFeed] { [] }
    public func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        RemoteItemPage(items: [], cursor: nil, more: false)
    }
    public func states() async throws(AccountError) -> RemoteStates { RemoteStates(unread: [], starred: []) }
    public func send(_ changes: [RemoteFlagChange]) async throws(AccountError) {}
    public func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed {
        throw .unsupported("")
    }
    public func unsubscribe(feedID: String) async throws(AccountError) {}
}
