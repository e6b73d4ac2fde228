import Foundation

extension TinyTinyRSSService {
    /// One entry of `getCounters`: a feed's, a category's, a label's or a virtual feed's
    /// counts (ids are numbers, or words such as `global-unread`).
    struct Counter: Decodable {
        var id: String
        var kind: String?
        var counter: Int?
        var auxcounter: Int?
        var markedcounter: Int?

        private enum CodingKeys: String, CodingKey { case id, kind, counter, auxcounter, markedcounter }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let number = try? container.decode(Int.self, forKey: .id) {
                id = String(number)
            } else {
                id = String(try container.decode(String.self, forKey: .id).prefix(64))
            }
            kind = try? container.decode(String.self, forKey: .kind)
            counter = (try? container.decode(FlexibleInt.self, forKey: .counter))?.value
            auxcounter = (try? container.decode(FlexibleInt.self, forKey: .auxcounter))?.value
            markedcounter = (try? container.decode(FlexibleInt.self, forKey: .markedcounter))?.value
        }
    }

    /// The unread count of every feed, category and label, and the starred count (the
    /// virtual feed -1's `auxcounter`), from one `getCounters` call (a few milliseconds,
    /// where listing 10,000 unread ids takes TT-RSS about 10 s). Two changes that leave
    /// every count as it was are not seen: `AccountSync` reads the flags whole at least
    /// every `statesAge` all the same.
    public func statesFingerprint() async throws(AccountError) -> String? {
        let counters = try await call("getCounters", ["output_mode": .text("flc")], as: [Counter].self)
        return counters.map { "\($0.kind ?? "")\($0.id)=\($0.counter ?? 0)/\($0.auxcounter ?? 0)/\($0.markedcounter ?? 0)" }
            .sorted().joined(separator: ",")
    }
}
