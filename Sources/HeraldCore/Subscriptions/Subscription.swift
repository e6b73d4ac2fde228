/// A feed the user follows: where it is, what to call it, how it is tagged.
public struct Subscription: Sendable, Hashable {
    public var url: String
    /// A title chosen by the user (or the OPML file); nil to use the feed's own.
    public var title: String?
    public var siteURL: String?
    public var tags: [String]

    public init(url: String, title: String? = nil, siteURL: String? = nil, tags: [String] = []) {
        self.url = url
        self.title = title
        self.siteURL = siteURL
        self.tags = tags
    }
}

/// A subscription as a file lists it, with the line it is on.
public struct ListedSubscription: Sendable, Hashable {
    public var subscription: Subscription
    public var line: Int

    public init(subscription: Subscription, line: Int) {
        self.subscription = subscription
        self.line = line
    }
}

/// Why a subscription list could not be read.
public struct SubscriptionImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
