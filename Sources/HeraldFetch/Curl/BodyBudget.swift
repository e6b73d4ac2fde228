import Synchronization

/// Bytes of fetched bodies held in memory, from their first byte until their consumer is
/// done with them (a reload: until the feed is stored).
///
/// Waiting on the network costs a socket and no memory, so a reload sends many requests at
/// once; but over a fast link the bodies would all arrive together and wait, in memory, for
/// a core to parse them. So a transfer may start receiving its body only while the bytes
/// held are under the limit: otherwise it is paused (libcurl keeps what it read; the
/// server's further bytes wait in the kernel, and TCP holds the rest back) and resumed, in
/// order, as bodies are released. A transfer that has started receiving always finishes, so
/// the bytes held can pass the limit by the bodies under way, and nothing can deadlock.
final class BodyBudget: Sendable {
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a body may start arriving now.
    var hasRoom: Bool { held.withLock { $0 < limit } }

    var bytesHeld: Int { held.withLock { $0 } }

    func take(_ bytes: Int) { held.withLock { $0 += bytes } }

    func release(_ bytes: Int) { held.withLock { $0 = max($0 - bytes, 0) } }
}
