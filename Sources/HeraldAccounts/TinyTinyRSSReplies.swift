import Foundation

/// The answers of Tiny Tiny RSS's JSON API (`classes/api.php`), read as hostile input: every
/// field Herald uses is checked for its type (a wrong one fails the whole answer, which
/// becomes `AccountError.badResponse`), every other field is skipped.
enum TinyTinyRSSReply {
    /// `{"seq": N, "status": 0, "content": …}`, or `status` 1 with `{"error": "CODE"}`.
    struct Envelope<Content: Decodable>: Decodable {
        let outcome: Outcome

        enum Outcome {
            case ok(Content)
            case failed(code: String, message: String?)
        }

        private enum Keys: String, CodingKey { case status, content }
        private struct Failure: Decodable {
            let error: String
            let message: String?
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let status = try container.decode(FlexibleInt.self, forKey: .status).value
            if status == 0 {
                outcome = .ok(try container.decode(Content.self, forKey: .content))
            } else {
                let failure = try container.decode(Failure.self, forKey: .content)
                outcome = .failed(code: failure.error, message: failure.message)
            }
        }
    }

    struct Login: Decodable {
        let sessionID: String

        private enum CodingKeys: String, CodingKey { case sessionID = "session_id" }
    }

    /// What `getFeeds` lists: real feeds have a positive id and a `feed_url`; with
    /// `cat_id` -3 only real feeds come, but a category row (`is_cat`) or a virtual feed is
    /// skipped, not trusted.
    struct Feed: Decodable {
        let id: FlexibleInt
        let title: String?
        let url: String?
        let categoryID: FlexibleInt?
        let isCategory: FlexibleBool?

        private enum CodingKeys: String, CodingKey {
            case id, title, url = "feed_url", categoryID = "cat_id", isCategory = "is_cat"
        }
    }

    struct Category: Decodable {
        let id: FlexibleInt
        let title: String?
    }

    /// One article of `getHeadlines`. Dates are Unix times (`updated`: the article's own
    /// date, which TT-RSS sets from the feed's and never later than when it fetched it).
    struct Headline: Decodable {
        let id: FlexibleInt
        let unread: FlexibleBool
        let marked: FlexibleBool
        let updated: FlexibleInt?
        let title: String?
        let link: String?
        let author: String?
        let feedID: FlexibleInt?
        let content: String?
        let attachments: [Attachment]?

        private enum CodingKeys: String, CodingKey {
            case id, unread, marked, updated, title, link, author, feedID = "feed_id", content, attachments
        }
    }

    /// The few fields of a headline `states()` reads (its pages carry no content).
    struct Flags: Decodable {
        let id: FlexibleInt
        let unread: FlexibleBool
        let marked: FlexibleBool
    }

    /// A row of `ttrss_enclosures`: TT-RSS keeps an RSS enclosure's `length` in the column
    /// named `duration`, a string that may be empty (read as no length, not as an error).
    struct Attachment: Decodable {
        let url: String?
        let type: String?
        let title: String?
        let length: LenientInt?

        private enum CodingKeys: String, CodingKey {
            case url = "content_url", type = "content_type", title, length = "duration"
        }
    }

    struct Subscribed: Decodable {
        let status: Status

        struct Status: Decodable {
            let code: FlexibleInt
            let feedID: FlexibleInt?
            let message: String?

            private enum CodingKeys: String, CodingKey { case code, feedID = "feed_id", message }
        }
    }

    /// Answers whose content Herald does not read (`{"status": "OK"}` and the like).
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// An integer as TT-RSS may write one: a JSON number, or a string of digits (PHP hands
/// database columns on as it got them). Anything else is a decoding error.
struct FlexibleInt: Decodable, Hashable {
    let value: Int

    init(_ value: Int) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Int(text), text.utf8.count < 20
        {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
        }
    }
}

/// A flag as TT-RSS may write one: a JSON boolean, 0/1, or PostgreSQL's "t"/"f".
struct FlexibleBool: Decodable, Hashable {
    let value: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = flag
        } else if let number = try? container.decode(Int.self), number == 0 || number == 1 {
            value = number == 1
        } else if let text = try? container.decode(String.self),
            ["t", "f", "true", "false", "0", "1"].contains(text)
        {
            value = text == "t" || text == "true" || text == "1"
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a flag")
        }
    }
}

/// A number that may as well be missing: an integer, a string of digits, or anything else
/// read as nil (an enclosure's length, which feeds leave empty or fill with words).
struct LenientInt: Decodable, Hashable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        value = try? FlexibleInt(from: decoder).value
    }
}
