import Foundation
import HeraldCore

@testable import HeraldStore

/// The reference: last writer wins per key, in the order the changes were stamped (the fake
/// clock gives every sync its own millisecond, so a sync's changes are stamped after every
/// change of an earlier sync). Moves make URLs aliases: a key's state is the latest among its
/// own and those of every URL that moved to its feed. An article is read when the latest of
/// its own read flags and its feed's mark-all-read (covering its date) says so.
struct ReferenceModel {
    typealias Order = (Int64, Int)
    var state: [SyncChange.Key: (order: Order, value: String)] = [:]
    var unsent: [[SyncChange]]

    init(machines: Int) { unsent = Array(repeating: [], count: machines) }

    mutating func record(
        _ machine: Int, _ kind: SyncChange.Kind, _ url: String, guid: String = "", _ value: String
    ) {
        unsent[machine].append(SyncChange(kind: kind, feedURL: url, guid: guid, value: value))
    }

    mutating func sync(_ machine: Int, at time: Int64) {
        for (index, change) in unsent[machine].enumerated() {
            if let known = state[change.key], known.order >= (time, index) { continue }
            state[change.key] = ((time, index), change.value)
        }
        unsent[machine] = []
    }

    /// Where a moved URL's feed lives now: its moves followed to the end (the test's
    /// redirects make no loop).
    func destination(_ url: String) -> String? {
        var (current, hops) = (url, 0)
        while let next = state[key(.moved, current)]?.value, hops < state.count {
            (current, hops) = (next, hops + 1)
        }
        return current == url ? nil : current
    }

    /// The URLs whose states reach `url`'s feed: itself and those moved to it.
    func aliases(_ url: String, among urls: [String]) -> [String] {
        [url] + urls.filter { $0 != url && destination($0) == url }
    }

    /// The latest state of `kind` for `url`'s feed (and `guid`), among its aliases.
    func effective(_ kind: SyncChange.Kind, _ url: String, _ guid: String = "", among urls: [String])
        -> (order: Order, value: String)?
    {
        aliases(url, among: urls).compactMap { state[SyncChange.Key(kind: kind, feedURL: $0, guid: guid)] }
            .max { $0.order < $1.order }
    }

    func value(_ kind: SyncChange.Kind, _ url: String, _ guid: String = "", among urls: [String]) -> String? {
        effective(kind, url, guid, among: urls)?.value
    }

    /// Whether an article dated `date` (unix seconds) is read.
    func isRead(_ url: String, _ guid: String, date: Int64, among urls: [String]) -> Bool {
        let own = effective(.read, url, guid, among: urls)
        if let all = effective(.readall, url, among: urls), Int64(all.value) ?? 0 >= date,
            own.map({ all.order > $0.order }) ?? true
        {
            return true
        }
        return own?.value == "1"
    }

    private func key(_ kind: SyncChange.Kind, _ url: String) -> SyncChange.Key {
        SyncChange.Key(kind: kind, feedURL: url, guid: "")
    }
}
