import Synchronization

/// Bytes of fetched bodies held in memory, from their first byte until their consumer is
/// done with them (a reload: until the feed is stored).
///
/// Waiting on the network costs a socket and no memory, so a reload sends many requests at
/// once; but over a fast link the bodies would all arrive together and wait, in memory, for
/// a core to parse them. So a transfer may start receiving its body only while the bytes
/// held are under the limit: otherwise it is paused (libcurl keeps what it read; the
/// server's further bytes wait in the kernel, and TCP holds the rest back) and resumed, in
/// order, as bodies are released.
///
/// A body under way may grow past what it reserved only while there is room, or while it is
/// the one transfer allowed to (the lead): four gzip bombs arriving together would otherwise
/// each grow to the 16 MB cap at once. A lead whose body is larger than the whole limit keeps
/// its place until that body is released, not only until it has arrived: else, with the
/// consumer slower than the network (parsing on niced threads of a busy machine), each body
/// that arrived would hand the lead on to another admitted one, and large bodies would pile
/// up (8 bodies of 14 MB peaked at 104 MiB in one reload). A smaller body hands the lead on
/// when it has arrived, as before: holding the lead for every body made a cold reload of 200
/// feeds of 240 KB slower (medians of 6 runs 6.2 s against 5.2, at load 7–11), and the small
/// bodies that pile up are few (transfers are admitted only while there is room). The lead
/// always goes on, and its consumer releases it without waiting for any other transfer, so
/// nothing can deadlock.
final class BodyBudget: Sendable {
    let limit: Int
    private let held = Mutex((now: 0, peak: 0))
    /// The transfer that may grow while the budget is full.
    private let lead = Mutex<UInt64?>(nil)

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a body may start arriving now.
    var hasRoom: Bool { held.withLock { $0.now < limit } }

    var bytesHeld: Int { held.withLock { $0.now } }

    /// The most bytes ever held at once (tests).
    var peakHeld: Int { held.withLock { $0.peak } }

    func take(_ bytes: Int) {
        held.withLock {
            $0.now += bytes
            $0.peak = max($0.peak, $0.now)
        }
    }

    func release(_ bytes: Int) { held.withLock { $0.now = max($0.now - bytes, 0) } }

    /// Whether transfer `id` may take more bytes now: while there is room, or as the lead.
    func mayGrow(_ id: UInt64) -> Bool {
        if hasRoom { return true }
        return lead.withLock { lead in
            if lead == nil { lead = id }
            return lead == id
        }
    }

    /// Whether no transfer leads: a paused one may become the lead.
    var leadIsFree: Bool { lead.withLock { $0 == nil } }

    /// Transfer `id` has ended: if it led, the lead is free.
    func end(_ id: UInt64) { lead.withLock { if $0 == id { $0 = nil } } }
}
