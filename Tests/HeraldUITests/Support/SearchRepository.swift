import HeraldCore

/// A repository over the small test library whose search counts its calls and can hold
/// one until the test releases it, ignoring cancellation (the worst a store could do).
actor SearchRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    /// Every query searched for, in call order.
    private(set) var queries: [String] = []
    /// Searches for this query wait for `release` (once), whatever happens to their task.
    private var held: String?
    private var heldCall: CheckedContinuation<Void, Never>?
    /// A search failure to report instead of results.
    private var failure: String?

    init(inner: InMemoryArticleRepository = makeLibrary()) {
        self.inner = inner
    }

    var searchCount: Int { queries.count }

    /// Makes the next search for `query` wait for `release()`.
    func hold(_ query: String) { held = query }

    /// Lets the held search finish.
    func release() {
        heldCall?.resume()
        heldCall = nil
    }

    /// True while a held search is waiting.
    var isHolding: Bool { heldCall != nil }

    func fail(with message: String?) { failure = message }

    struct Failure: Error, CustomStringConvertible { var description: String }

    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        queries.append(query)
        if let failure { throw Failure(description: failure) }
        guard query == held else { return try await inner.search(query, limit: limit) }
        held = nil
        await withCheckedContinuation { heldCall = $0 }
        // Finishes even if its task was cancelled meanwhile: the scan runs in a task of its own.
        return try await Task { [inner] in try await inner.search(query, limit: limit) }.value
    }
}
