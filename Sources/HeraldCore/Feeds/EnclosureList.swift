import Foundation

/// The media files of one item as a parser meets them: every value checked, the same file
/// named twice (an RSS `<enclosure>` and a `media:content`) kept once with what each says,
/// and at most `limit` files.
///
/// Feed data is hostile: an item may name a hundred thousand files, `javascript:` or `file:`
/// ones, lengths of "-1" or "big". An empty list allocates nothing, so items without media
/// cost nothing more.
package struct EnclosureList {
    package init() {}

    /// Files kept per item; any more are dropped.
    static let limit = 64
    /// The longest URL kept, in bytes (tracking prefixes make podcast URLs long, not this long).
    static let maxURLBytes = 8192
    /// The longest title kept, in characters.
    static let maxTitleCharacters = 500

    struct Entry {
        var enclosure: Enclosure
        /// Named only by Media RSS as a picture (`medium="image"`, an `image/` type): a post's
        /// illustration or its author's avatar (WordPress.com adds one to every post), not a
        /// file to play or fetch. Dropped unless an enclosure names the same URL.
        var isPicture: Bool
    }

    private(set) var entries: [Entry] = []

    /// Adds a file, or merges what it says into the file already met with the same URL.
    /// Returns the file's index, nil when it was dropped (unsafe URL, list full).
    @discardableResult
    package mutating func add(
        url reference: String?, base: String?, type: String? = nil, length: Int64? = nil,
        duration: Int? = nil, title: String? = nil, isPicture: Bool = false
    ) -> Int? {
        guard let reference, let url = Self.url(reference, base: base) else { return nil }
        let known = entries.firstIndex(where: { $0.enclosure.url == url })
        guard known != nil || entries.count < Self.limit else { return nil }
        let enclosure = Enclosure(
            url: url, type: type.flatMap(Self.type), length: length,
            duration: duration.flatMap { $0 > 0 ? $0 : nil }, title: title.flatMap(Self.title))
        if let known {
            entries[known].merge(enclosure, isPicture: isPicture)
            return known
        }
        entries.append(Entry(enclosure: enclosure, isPicture: isPicture))
        return entries.count - 1
    }

    /// Gives the file at `index` a title when it has none (`media:title` inside `media:content`).
    mutating func setTitle(_ title: String, at index: Int) {
        guard entries.indices.contains(index), entries[index].enclosure.title == nil else { return }
        entries[index].enclosure.title = Self.title(title)
    }

    /// The files to publish, pictures left out; `duration` (`itunes:duration`) goes to those
    /// that have none.
    package func enclosures(duration: Int?) -> [Enclosure] {
        guard !entries.isEmpty else { return [] }
        var result: [Enclosure] = []
        result.reserveCapacity(entries.count)
        for entry in entries where !entry.isPicture {
            var enclosure = entry.enclosure
            if enclosure.duration == nil, let duration, duration > 0 { enclosure.duration = duration }
            result.append(enclosure)
        }
        return result
    }

    // MARK: Checking feed values

    /// `reference` made absolute against `base` as links are, or nil when it is not then an
    /// http or https URL (or is absurdly long). Surrounding white space goes, inner spaces
    /// become `%20`, and a URL with control characters is dropped.
    static func url(_ reference: String, base: String?) -> String? {
        guard !reference.isEmpty, reference.utf8.count <= maxURLBytes else { return nil }
        var reference = reference
        if let first = reference.utf8.first, let last = reference.utf8.last, first >= 0x80 || last >= 0x80 {
            reference = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let resolved = XMLFeedText.resolve(reference, against: base)
        return checked(resolved)
    }

    /// `url` when it is an absolute http or https URL with a host part and no control
    /// characters (inner spaces escaped), else nil.
    static func checked(_ url: String) -> String? {
        let utf8 = url.utf8
        guard utf8.count <= maxURLBytes else { return nil }
        let schemeLength: Int
        if hasPrefix(utf8, "https://") {
            schemeLength = 8
        } else if hasPrefix(utf8, "http://") {
            schemeLength = 7
        } else {
            return nil
        }
        guard utf8.count > schemeLength else { return nil }
        var hasSpace = false
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F { return nil }
            if byte == 0x20 { hasSpace = true }
        }
        // Spaces, and C1 or bidi controls that would act on a terminal, are percent-encoded.
        return hasSpace || !url.utf8.allSatisfy({ $0 < 0x80 }) ? URLText.escapingUnsafe(url) : url
    }

    /// True when `utf8` starts with `prefix`, ASCII letters in any case.
    private static func hasPrefix(_ utf8: String.UTF8View, _ prefix: StaticString) -> Bool {
        guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
        var index = utf8.startIndex
        for offset in 0..<prefix.utf8CodeUnitCount {
            let byte = utf8[index]
            let lower = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            guard lower == prefix.utf8Start[offset] else { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// A size in bytes written as a non-negative integer; nil for anything else.
    static func length(_ text: String?) -> Int64? {
        guard let text else { return nil }
        let trimmed = XMLFeedText.trimmed(text)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(trimmed)  // nil past Int64.max
    }

    /// A MIME type trimmed and lowercased; nil when empty.
    static func type(_ text: String) -> String? {
        let line = XMLFeedText.oneLine(text).lowercased()
        return line.isEmpty || line.utf8.count > 255 ? nil : line
    }

    /// A title on one clean line, not too long; nil when empty.
    static func title(_ text: String) -> String? {
        let line = XMLFeedText.oneLine(text)
        if line.isEmpty { return nil }
        return line.count > maxTitleCharacters ? String(line.prefix(maxTitleCharacters)) + "…" : line
    }
}

extension EnclosureList.Entry {
    /// What `other`, the same file named again, knows that this entry does not.
    mutating func merge(_ other: Enclosure, isPicture: Bool) {
        self.isPicture = self.isPicture && isPicture
        if enclosure.type == nil { enclosure.type = other.type }
        // Feeds often say length="0" in the enclosure and the real size in media:content.
        if let length = other.length, enclosure.length == nil || (enclosure.length == 0 && length > 0) {
            enclosure.length = length
        }
        if enclosure.duration == nil { enclosure.duration = other.duration }
        if enclosure.title == nil { enclosure.title = other.title }
    }
}
