/// Opens a link outside the reader (the terminal runs `$BROWSER`); returns what went wrong,
/// or nil.
@MainActor
public protocol LinkOpening: AnyObject {
    func open(_ url: String) -> String?
}

extension ArticleViewModel {
    /// The article's numbered links: the `[n] url` lines after its last `Links:` line.
    public var links: [String] {
        guard let text = state.value?.text, let range = text.range(of: "\nLinks:\n", options: .backwards)
        else { return [] }
        var found: [String] = []
        for line in text[range.upperBound...].split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                Int(line[line.index(after: line.startIndex)..<close]) == found.count + 1
            else { break }
            found.append(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces))
        }
        return found
    }
}
