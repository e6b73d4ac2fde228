public import Foundation

/// What a fetch needs to know from the last one: the validators for a conditional GET.
public struct FetchRequest: Sendable, Hashable {
    public var url: URL
    public var etag: String?
    public var lastModified: String?
    /// The User-Agent for this feed (a per-feed setting); nil: `FetchLimits.userAgent`.
    /// Control characters are dropped before it is sent.
    public var userAgent: String?
    /// A body to POST (nil: a GET): a server account's API calls (`HeraldAccounts`).
    public var body: Data?
    /// More header lines (`Name: value`), as for an API's `Authorization` or `Content-Type`;
    /// control characters are dropped before they are sent. They may carry a secret: a
    /// request is never printed.
    public var headers: [String] = []

    public init(url: URL, etag: String? = nil, lastModified: String? = nil, userAgent: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.userAgent = userAgent
    }

    /// A POST of `body` with these header lines.
    public init(url: URL, post body: Data, headers: [String] = []) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}

/// A fetched document with its HTTP metadata, or word that nothing changed.
public enum FetchResult: Sendable, Hashable {
    /// 304: the stored copy is current (nothing to parse).
    case notModified
    /// 304 at the end of permanent redirects (301/308 only): unchanged, and the feed lives at
    /// this URL from now on (a site that moved its feed answers the old validators there).
    case notModifiedAt(URL)
    case fetched(FetchedDocument)
}

public struct FetchedDocument: Sendable, Hashable {
    public var data: Data
    public var etag: String?
    public var lastModified: String?
    /// The charset parameter of Content-Type, if any (for the parser).
    public var charset: String?
    /// Where the document was finally found, after redirects.
    public var finalURL: URL
    /// Set when every redirect on the way was permanent (301/308): store this URL instead.
    public var movedPermanentlyTo: URL?
    /// Bytes of the fetcher's body budget this document holds until it is released.
    var heldBytes = 0
    /// The transfer that fetched a body larger than the whole budget: if it led the budget,
    /// the lead is free again only once the document is released (see `BodyBudget`).
    var transfer: UInt64?

    /// A document that came from no transfer (a command feed's output), its bytes apart.
    public init(finalURL: URL, data: Data = Data()) {
        (self.finalURL, self.data) = (finalURL, data)
    }

    init(
        data: Data, etag: String? = nil, lastModified: String? = nil, charset: String? = nil, finalURL: URL,
        movedPermanentlyTo: URL? = nil
    ) {
        (self.data, self.etag, self.lastModified, self.charset) = (data, etag, lastModified, charset)
        (self.finalURL, self.movedPermanentlyTo) = (finalURL, movedPermanentlyTo)
    }
}
