public import Foundation

/// `Server/feed_folder_server.py` on a free loopback port: serves the feeds a test writes into
/// a temporary folder (read afresh at each request, without validators), and the faults of
/// an account's API (`faultBase(_:)`). One per test; `stop()` it at the end.
public final class FeedFolderServer {
    public let folder: URL
    public let port: Int
    let process: Process

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-feeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        (process, port) = try ScriptServer.start(
            "feed_folder_server.py", [folder.path], what: "the feed folder server")
    }

    /// The address TT-RSS (or anything) fetches the feed file `name` at.
    public func feedURL(_ name: String) -> String { "http://127.0.0.1:\(port)/feeds/\(name)" }

    /// Writes the feed file `name` (atomically: a fetch never sees half of it).
    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
    }

    /// A base address whose `/api/` answers with the fault `kind` (see the script's list).
    public func faultBase(_ kind: String) -> URL { URL(string: "http://127.0.0.1:\(port)/fault/\(kind)/")! }

    /// SIGKILL: test threads block SIGTERM, and a child inherits that mask.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// An RSS 2.0 document of `items`, for the feed files of tests.
public struct FolderFeed: Sendable {
    public struct Item: Sendable {
        public var guid: String
        public var title: String
        public var link: String
        public var author: String
        public var date: Date
        public var html: String
        public var enclosure: (url: String, type: String, length: Int)?

        public init(
            guid: String, title: String, link: String, author: String, date: Date, html: String,
            enclosure: (url: String, type: String, length: Int)? = nil
        ) {
            (self.guid, self.title, self.link, self.author, self.date, self.html) = (
                guid, title, link, author, date, html
            )
            self.enclosure = enclosure
        }
    }

    public var title: String
    public var items: [Item]

    public init(title: String, items: [Item]) {
        (self.title, self.items) = (title, items)
    }

    public var rss: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let body = items.map { item in
            let enclosure = item.enclosure.map {
                "<enclosure url=\"\(escape($0.url))\" type=\"\(escape($0.type))\" length=\"\($0.length)\"/>"
            }
            return """
                <item><guid isPermaLink="false">\(escape(item.guid))</guid><title>\(escape(item.title))</title>\
                <link>\(escape(item.link))</link><author>\(escape(item.author))</author>\
                <pubDate>\(formatter.string(from: item.date))</pubDate>\
                <description>\(escape(item.html))</description>\(enclosure ?? "")</item>
                """
        }
        return """
            <?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>\(escape(title))</title>\
            <link>http://example.org/</link>
            \(body.joined(separator: "\n"))
            </channel></rss>
            """
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

