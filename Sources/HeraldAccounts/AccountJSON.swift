import Foundation
import HeraldCore

/// Reading a server's JSON answer into `Decodable` types, where any mismatch becomes an
/// `AccountError.badResponse` that says where the answer went wrong (a path such as
/// `items[3].published`), never the values themselves.
enum AccountJSON {
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, _ what: String)
        throws(AccountError) -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .badResponse("\(what): \(describe(error))")
        } catch {
            throw .badResponse("\(what): not JSON")
        }
    }

    /// A decoding error in words: where, and what was expected there.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null where \(name(type)) was expected"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is malformed"
        @unknown default:
            return "not understood"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        if keys.isEmpty { return "the document" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + String(key.stringValue.prefix(64))
            }
        }
        return text
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default: "the expected type"
        }
    }
}

/// A JSON scalar that servers write as a string or as a number, as they please (ids, times,
/// sizes: FreshRSS quotes its item ids, Miniflux does not), or a boolean for a flag: kept as
/// text (`true`, `false` for a boolean). An object, an array or null is a type mismatch.
struct JSONScalar: Decodable, Sendable, Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else if let number = try? container.decode(Int64.self) {
            self.text = String(number)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            self.text =
                number == number.rounded() && abs(number) < 9e18 ? String(Int64(number)) : String(number)
        } else if let flag = try? container.decode(Bool.self) {
            self.text = flag ? "true" : "false"
        } else {
            throw DecodingError.typeMismatch(
                String.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "neither a string nor a number"))
        }
    }

    /// The value as a whole number, if it is one.
    var int64: Int64? { Int64(text.trimmingCharacters(in: .whitespaces)) }
}

/// Checks shared by the protocols' clients.
enum AccountValue {
    /// A date from seconds since 1970, if it is a plausible one (servers write 0 for none).
    static func date(seconds: Int64?) -> Date? {
        guard let seconds, seconds > 0, seconds < 253_402_300_800 else { return nil }  // before year 10000
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// A server's message, made safe to show: one line, at most 200 characters.
    static func message(_ text: String) -> String {
        String(ServerItem.line(text).prefix(200))
    }

    /// A credential or token from a server, to go into a header or a form: nil unless it is
    /// printable ASCII without spaces and of a sane length.
    static func token(_ text: Substring) -> String? {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.utf8.count <= 4096,
            token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        return token
    }
}

/// A server's items made into Herald's on every core: reading each one's HTML for its text
/// is most of what a page of items costs.
enum RemoteItems {
    /// `make` of each item (nil: left out), in the items' order.
    static func make<Item: Sendable>(_ items: [Item], _ make: @escaping @Sendable (Item) -> RemoteItem?) async
        -> [RemoteItem]
    {
        let parts = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), max(items.count / 16, 1))
        if parts == 1 { return items.compactMap(make) }
        let size = (items.count + parts - 1) / parts
        return await withTaskGroup(of: (Int, [RemoteItem]).self) { group in
            for part in 0..<parts {
                let slice = items[min(part * size, items.count)..<min((part + 1) * size, items.count)]
                group.addTask { (part, slice.compactMap(make)) }
            }
            var made = [[RemoteItem]](repeating: [], count: parts)
            for await (part, items) in group { made[part] = items }
            return made.flatMap { $0 }
        }
    }
}
