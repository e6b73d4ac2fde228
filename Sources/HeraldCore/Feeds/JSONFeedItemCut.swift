import Foundation

/// A JSON Feed document cut down to its first items before it is decoded.
///
/// `JSONDecoder` reads a whole document into a map of every value before it decodes any: a
/// 16 MB body of a million `{}` items costs its map whatever the decoding keeps. So the
/// items past the limit are cut out of the bytes first, by a scan that allocates nothing:
/// each `items` array of the top-level object ends after its `limit`-th element, and the
/// rest of the document (keys after `items`) stays as it was. The scan only follows strings
/// and brackets; what it leaves is decoded, and judged, as before.
enum JSONFeedItemCut {
    /// The document with at most `limit` elements in each top-level `items` array, and
    /// whether any were cut. UTF-8 only (`JSONFeedParser.utf8` runs first).
    static func cut(_ data: Data, limit: Int) -> (data: Data, cut: Bool) {
        let cuts = data.withUnsafeBytes { ranges(in: $0, limit: limit) }
        guard !cuts.isEmpty else { return (data, false) }
        var kept = Data()
        kept.reserveCapacity(data.count)
        var start = 0
        for range in cuts {
            kept.append(data[data.startIndex + start..<data.startIndex + range.lowerBound])
            start = range.upperBound
        }
        kept.append(data[(data.startIndex + start)...])
        return (kept, true)
    }

    /// The byte ranges to remove (offsets into `bytes`): from the comma before element
    /// `limit + 1` of each top-level `items` array to its closing bracket.
    static func ranges(in bytes: UnsafeRawBufferPointer, limit: Int) -> [Range<Int>] {
        let key = Array("\"items\"".utf8)
        var cuts: [Range<Int>] = []
        var depth = 0
        // The last string closed in the top-level object, and whether a colon followed it.
        var lastString: Range<Int>?
        var isKey = false
        // In an `items` array: before an element (after `[` or a comma), elements begun,
        // the last comma, where the cut starts.
        var inItems = false
        var expecting = false
        var elements = 0
        var lastComma = 0
        var cutStart: Int?

        /// A value begins at depth `depth`: in an `items` array, maybe its next element.
        func valueBegins() {
            guard inItems, depth == 2, expecting else { return }
            expecting = false
            elements += 1
            if elements == limit + 1 { cutStart = lastComma }
        }

        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                valueBegins()
                // A string: skip to its closing quote, past escaped characters.
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1 { (lastString, isKey) = (start..<min(index + 1, bytes.count), false) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                valueBegins()
                let opensItems =
                    depth == 1 && bytes[index] == UInt8(ascii: "[") && isKey
                    && lastString.map { $0.count == key.count && bytes[$0].elementsEqual(key) } == true
                depth += 1
                if opensItems { (inItems, expecting, elements, cutStart) = (true, true, 0, nil) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if inItems, depth == 1 {
                    if let cutStart { cuts.append(cutStart..<index) }
                    inItems = false
                }
                if depth <= 0 { return cuts }
            case UInt8(ascii: ":") where depth == 1:
                isKey = lastString != nil
            case UInt8(ascii: ",") where inItems && depth == 2:
                (expecting, lastComma) = (true, index)
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ":"), UInt8(ascii: ","):
                break
            default:
                // A number, `true`, `false` or `null`.
                valueBegins()
            }
            index += 1
        }
        return cuts
    }
}
