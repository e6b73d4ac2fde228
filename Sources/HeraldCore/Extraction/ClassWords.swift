/// What an element's `class` and `id` say about it: the words page templates give to
/// boilerplate (`share-bar`, `related-posts`, `cookie-banner`) and to the article itself
/// (`article-body`, `entry-content`). Names are split into words at anything not a letter or a
/// digit and at lower-to-upper case changes (`shareBar` is `share`, `bar`); a word counts when
/// it is one of these or, for the longer ones, starts with one (`sharetools`, `comments`).
struct ClassWords {
    /// Words of boilerplate: an element named so is left out (unless it holds most of the
    /// page's text: some sites name their whole page `has-sidebar`).
    static let boilerplate: [String] = [
        "comment", "disqus", "share", "sharing", "social", "related", "recommend", "newsletter", "subscri",
        "signup", "promo", "sponsor", "advert", "banner", "cookie", "consent", "gdpr", "popup", "modal",
        "sidebar", "widget", "breadcrumb", "pagination", "pager", "masthead", "navbar", "navigation", "footer",
        "outbrain", "taboola", "popular", "trending", "readmore", "recirc", "toolbar", "login", "signin",
        "byline", "dateline", "timestamp", "hidden", "offscreen", "overlay", "rating", "follow",
        "feedback", "donate", "teaser", "utility", "further", "keywords", "printfooter", "skiplink", "jump",
        "reaction", "sticky", "affiliate", "marketing", "ribbon", "disclosure",
    ]
    /// Short words that count only whole (`ad` but not `add`, `nav` but not `navigate`).
    static let boilerplateWords: [String] = [
        "ad", "ads", "adv", "nav", "menu", "tags", "tag", "meta", "tools", "share", "print", "rss", "cta",
        "hide", "author", "bio", "credit", "credits", "next", "prev", "more", "video", "player", "sr", "dfp",
        "gpt", "alert", "header", "masthead", "aside", "caption", "hed", "dek", "kicker", "eyebrow", "links",
    ]
    /// Words of content.
    static let content: [String] = [
        "article", "body", "content", "entry", "main", "post", "story", "text", "blog", "prose", "hentry",
        "richtext", "paragraph",
    ]

    private static func hashes(_ words: [String]) -> HashTable<Bool> {
        HashTable(words.map { (PageTag.hash(Array($0.utf8)), true) })
    }
    private static let boilerplatePrefixes = hashes(boilerplate)
    private static let boilerplateWhole = hashes(boilerplateWords)
    private static let contentWords = hashes(content)
    /// Bit n: a prefix word is n bytes long.
    private static let prefixLengths: UInt64 = boilerplate.reduce(0) { $0 | 1 << UInt64(min($1.utf8.count, 63)) }

    struct Verdict {
        var boilerplate = false
        var content = false
    }

    /// Reads the words of `name` (a class or id value).
    static func judge(_ name: ArraySlice<UInt8>, into verdict: inout Verdict) {
        var i = name.startIndex
        let end = name.endIndex
        while i < end {
            while i < end, !isWordByte(name[i]) { i += 1 }
            guard i < end else { break }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var length = 0
            var matchedPrefix = false
            var previousLower = false
            while i < end, isWordByte(name[i]) {
                let byte = name[i]
                let upper = byte >= 0x41 && byte <= 0x5A
                if upper, previousLower { break }  // `shareBar`: a new word
                previousLower = !upper
                hash = (hash ^ UInt64(byte | (upper ? 0x20 : 0))) &* 0x100_0000_01b3
                length += 1
                i += 1
                if !matchedPrefix, length >= 5, length < 64, prefixLengths & (1 << UInt64(length)) != 0,
                    boilerplatePrefixes.contains(hash)
                {
                    matchedPrefix = true
                }
            }
            if matchedPrefix || boilerplateWhole.contains(hash) { verdict.boilerplate = true }
            if contentWords.contains(hash) { verdict.content = true }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }
}
