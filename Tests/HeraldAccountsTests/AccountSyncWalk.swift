import Foundation
import HeraldAccounts

/// What a sync engine does with `items(after:limit:)`: pages until `more` is false, and
/// keeps the last page's cursor for next time.
struct SyncWalk {
    var items: [RemoteItem] = []
    var pages: [Int] = []
    var cursor: String?

    /// Item ids by title (the titles of test articles are unique).
    var byTitle: [String: RemoteItem] {
        Dictionary(items.map { ($0.item.title, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var titles: Set<String> { Set(items.map(\.item.title)) }

    static func run(
        _ service: some AccountService, from cursor: String?, limit: Int, maxPages: Int = 1000,
        afterFirstPage: (() async throws -> Void)? = nil
    ) async throws -> SyncWalk {
        var walk = SyncWalk(cursor: cursor)
        while true {
            let page = try await service.items(after: walk.cursor, limit: limit)
            walk.items += page.items
            walk.pages.append(page.items.count)
            walk.cursor = page.cursor
            if walk.pages.count == 1, let afterFirstPage { try await afterFirstPage() }
            if !page.more { return walk }
            if walk.pages.count >= maxPages { throw WalkError.endless }
        }
    }

    enum WalkError: Error { case endless }
}

/// The error a call threw, as an `AccountError` (nil when it did not throw one).
func accountError<T>(_ call: () async throws -> T) async -> AccountError? {
    do {
        _ = try await call()
        return nil
    } catch let error as AccountError {
        return error
    } catch {
        return nil
    }
}

extension AccountError {
    /// The case's name, to compare without its words.
    var kind: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .unreachable: "unreachable"
        case .busy: "busy"
        case .serverError: "serverError"
        case .badResponse: "badResponse"
        case .unsupported: "unsupported"
        case .configuration: "configuration"
        case .refused: "refused"
        }
    }
}
