import CLibXML2
public import Foundation

/// Reads RSS 0.90–2.0, RSS 1.0 (RDF) and Atom 0.3/1.0 with libxml2's SAX2 push parser.
///
/// Safe on hostile input: parser options are 0 (no entity substitution, no DTD loading, no
/// network, no "huge" mode); external entities are never fetched (they expand to nothing);
/// libxml2's own entity-amplification checks stop "billion laughs"; and the character data
/// accepted per document is capped (`maxTextBytes`), which ends quadratic-blowup documents.
/// Past `InputLimits.itemsPerFeed` items the parse stops too, and the items before are the
/// feed, read with a warning.
///
/// Malformed XML is read all the same, as feedparser and newsboat read it (`XMLRepair`, then
/// libxml2's recovery mode, with the same options otherwise), and the feed says so in
/// `warnings` (the first error with its line). Errors are `FeedParseError.notAFeed` with a
/// message saying what happened: a document that is no feed, or cannot be read even so, or
/// meets a limit (entity loops and the text cap end any parse).
public enum XMLFeedParser {
    /// Character data accepted per document before the parse stops with "too much text".
    public static let maxTextBytes = 32 << 20

    /// Parses a feed; with `processingHTML` (the default) HTML bodies are also turned into
    /// text (`HTMLText`), else `text` stays empty for them and `html` holds them.
    public static func parse(
        _ data: Data, baseURL: String? = nil, httpCharset: String? = nil, processingHTML: Bool = true
    ) throws(FeedParseError) -> ParsedFeed {
        var feed = try parse(data, baseURL: baseURL, httpCharset: httpCharset, maxTextBytes: maxTextBytes)
        guard processingHTML else { return feed }
        // HTML bodies become readable text with numbered links, now that libxml2's SAX parse
        // (and its error handler) is over.
        for index in feed.items.indices {
            guard let html = feed.items[index].html else { continue }
            feed.items[index].text = HTMLText.process(html, baseURL: feed.items[index].link ?? baseURL).text
        }
        return feed
    }

    static func parse(
        _ data: Data, baseURL: String?, httpCharset: String?, maxTextBytes: Int,
        maxItems: Int = InputLimits.itemsPerFeed
    ) throws(FeedParseError) -> ParsedFeed {
        if data.withUnsafeBytes({ CrowdedTags.firstOffset(in: $0) }) != nil {
            throw .notAFeed("an element has more than \(CrowdedTags.limit) attributes")
        }
        var latin1As1252 = true
        var failure: PassFailure
        do {
            return try parseOnce(
                data, baseURL: baseURL, httpCharset: httpCharset, maxTextBytes: maxTextBytes,
                maxItems: maxItems,
                latin1As1252: true, recovering: false)
        } catch {
            failure = error
        }
        // Bytes Windows-1252 leaves undefined (0x81, 0x8D…): read it as ISO-8859-1 after all.
        if failure.isRecoverable, let declared = declaredEncoding(Array(data.prefix(512))),
            latin1Names.contains(declared)
        {
            do {
                return try parseOnce(
                    data, baseURL: baseURL, httpCharset: httpCharset, maxTextBytes: maxTextBytes,
                    maxItems: maxItems,
                    latin1As1252: false, recovering: false)
            } catch {
                failure = error
                latin1As1252 = false
            }
        }
        guard failure.isRecoverable else { throw failure.error }
        // Malformed XML (a bare "&", a tag left open, an undefined entity) is read as
        // feedparser and newsboat read it: repaired where that is clear, then parsed in
        // libxml2's recovery mode, and marked as read with errors.
        let repaired = XMLRepair.isRepairable(data) ? XMLRepair.repaired(data) : data
        do {
            var feed = try parseOnce(
                repaired, baseURL: baseURL, httpCharset: httpCharset, maxTextBytes: maxTextBytes,
                maxItems: maxItems,
                latin1As1252: latin1As1252, recovering: true)
            let first = failure.error.reason
            feed.warnings = [first] + feed.warnings.filter { $0 != first }
            return feed
        } catch {
            // Nothing to read even so: the strict parse's error says why, unless the
            // recovery met a limit or found the document is no feed.
            throw error.isRecoverable ? failure.error : error.error
        }
    }

    /// libxml2 errors after which nothing is read, not even in recovery mode: entity loops
    /// and amplification ("billion laughs"), internal errors and memory, a stopped parser.
    static let unrecoverable: Set<Int32> = [
        Int32(XML_ERR_ENTITY_LOOP.rawValue), Int32(XML_ERR_INTERNAL_ERROR.rawValue),
        Int32(XML_ERR_NO_MEMORY.rawValue), Int32(XML_ERR_USER_STOP.rawValue),
    ]

    /// Why one pass over a document failed, and whether reading in recovery mode may help.
    struct PassFailure: Error {
        var error: FeedParseError
        /// The libxml2 error code of a parse error; nil for a document that is no feed, or
        /// met a limit.
        var code: Int32?
        var isRecoverable: Bool { code.map { !unrecoverable.contains($0) } ?? false }
    }

    private static func parseOnce(
        _ data: Data, baseURL: String?, httpCharset: String?, maxTextBytes: Int, maxItems: Int,
        latin1As1252: Bool, recovering: Bool
    ) throws(PassFailure) -> ParsedFeed {
        _ = libxmlReady
        guard data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw PassFailure(error: .notAFeed("the document is empty"))
        }
        let data = trimmingLeadingWhiteSpace(data)
        let builder = XMLFeedBuilder(baseURL: baseURL, maxTextBytes: maxTextBytes, maxItems: maxItems)
        builder.recovering = recovering
        let outcome: Int32 = withExtendedLifetime(builder) {
            let context = Unmanaged.passUnretained(builder).toOpaque()
            var sax = makeHandler()
            // An HTTP charset libxml2 (iconv) does not know is ignored.
            let override = encodingOverride(data, httpCharset: httpCharset, latin1As1252: latin1As1252)
                .flatMap { xmlFindCharEncodingHandler($0) }
            // Messages outside a parser context (encoding set-up) go nowhere, not to stderr.
            cx_silence_generic_errors()
            xmlSetStructuredErrorFunc(context, recordError)
            defer {
                xmlSetStructuredErrorFunc(nil, nil)
                cx_restore_generic_errors()
            }
            return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int32 in
                let base = raw.bindMemory(to: CChar.self).baseAddress!
                let total = raw.count
                // With an encoding of our own, the first bytes must not pick one: start empty.
                let first = override == nil ? min(total, 4) : 0
                guard
                    let ctxt = xmlCreatePushParserCtxt(
                        &sax, context, first > 0 ? base : nil, Int32(first), nil)
                else { return -1 }
                defer {
                    // A document declaring entities makes libxml2 keep them in a document of its
                    // own even in SAX mode ("SAX compatibility"); the context does not free it.
                    if let document = ctxt.pointee.myDoc { xmlFreeDoc(document) }
                    xmlFreeParserCtxt(ctxt)
                }
                // Options 0: no entity substitution, no DTD loading, no network, no HUGE. With an
                // encoding of our own, the declaration must not switch it back (IGNORE_ENC).
                // Recovery mode changes none of that: it only reads on past errors.
                var options = override == nil ? 0 : Int32(XML_PARSE_IGNORE_ENC.rawValue)
                if recovering { options |= Int32(XML_PARSE_RECOVER.rawValue) }
                xmlCtxtUseOptions(ctxt, options)
                builder.parser = ctxt
                if let override { xmlSwitchToEncoding(ctxt, override) }
                var offset = first
                let chunk = 1 << 16
                var status: Int32 = 0
                repeat {
                    let length = min(chunk, total - offset)
                    let last = offset + length >= total
                    status = xmlParseChunk(ctxt, base + offset, Int32(length), last ? 1 : 0)
                    offset += length
                    // In recovery mode the status stays that of the first error: read on
                    // until the parser halts.
                    let halted = recovering ? ctxt.pointee.instate == XML_PARSER_EOF : status != 0
                    if halted || builder.isStopped { break }
                } while offset < total
                // A parse stopped at one item too many was sound as far as it went.
                if !recovering, !builder.tooManyItems, builder.firstError == nil, ctxt.pointee.wellFormed == 0
                {
                    builder.firstError = (Int(cx_ctxt_line(ctxt)), "the document is not well-formed", -1)
                }
                return status
            }
        }
        if outcome == -1 { throw PassFailure(error: .notAFeed("libxml2 could not create a parser")) }
        if builder.tooMuchText {
            throw PassFailure(
                error: .notAFeed("too much text: more than \(maxTextBytes) bytes of character data"))
        }
        if let reason = builder.notAFeed { throw PassFailure(error: .notAFeed(reason)) }
        if let error = builder.firstError {
            throw PassFailure(
                error: .notAFeed("parse error at line \(error.line): \(error.message)"), code: error.code)
        }
        guard builder.format != nil else {
            throw PassFailure(error: .notAFeed("no root element"), code: recovering ? -1 : nil)
        }
        var feed = builder.result()
        feed.warnings = builder.warnings
        if builder.tooManyItems { feed.warnings.append(ParsedFeed.tooManyItems(limit: maxItems)) }
        return feed
    }

    /// Feeds often start with blank lines before `<?xml`, which XML forbids: drop them (keeping
    /// a UTF-8 byte-order mark). Not for UTF-16, whose bytes this would misalign.
    static func trimmingLeadingWhiteSpace(_ data: Data) -> Data {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let start = data.starts(with: bom) ? data.startIndex + 3 : data.startIndex
        guard
            let first = data[start...].firstIndex(where: {
                $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09
            }),
            first > start, data[first] == UInt8(ascii: "<"), first + 1 < data.endIndex, data[first + 1] != 0
        else { return data }
        return start > data.startIndex ? Data(bom) + data[first...] : Data(data[first...])
    }

    /// The charset to impose: the HTTP one, only when the document names none itself (no
    /// byte-order mark, no encoding in its XML declaration) and it is not UTF-8.
    static func encodingOverride(_ data: Data, httpCharset: String?, latin1As1252: Bool = true) -> String? {
        let head = Array(data.prefix(512))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) || head.starts(with: [0xFE, 0xFF])
            || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0x00, 0x3C])
            || head.starts(with: [0x3C, 0x00]) || head.starts(with: [0, 0, 0xFE, 0xFF])
        {
            return nil
        }
        // Documents that say ISO-8859-1 are in practice often Windows-1252 (its superset for
        // text: curly quotes, dashes, €), as browsers assume too.
        if latin1As1252, let declared = declaredEncoding(head), latin1Names.contains(declared) {
            return "windows-1252"
        }
        guard var charset = httpCharset?.trimmingCharacters(in: .whitespaces), !charset.isEmpty else {
            return nil
        }
        charset = charset.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        let lower = charset.lowercased()
        if lower == "utf-8" || lower == "utf8" { return nil }
        if declaredEncoding(head) != nil { return nil }
        return charset
    }

    private static let latin1Names: Set<String> = ["iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1"]

    /// The encoding named in the XML declaration, lowercased; nil when there is none.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        guard head.starts(with: Array("<?xml".utf8)) else { return nil }
        let end = head.firstIndex(of: UInt8(ascii: ">")) ?? head.count
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "=" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix(while: { $0 != quote })).lowercased()
    }

    // MARK: libxml2 plumbing

    /// libxml2's global set-up, once (lazy globals are initialised thread-safely); the HTML
    /// parser (`HTMLText`) waits for it too.
    static let libxmlReady: Void = { xmlInitParser() }()

    private static func builder(_ context: UnsafeMutableRawPointer?) -> XMLFeedBuilder {
        Unmanaged<XMLFeedBuilder>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let recordError: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let builder = XMLFeedParser.builder(context)
        guard builder.firstError == nil,
            error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue
        else { return }
        let code = Int32(error.pointee.code)
        let isWarning = builder.recovering && !unrecoverable.contains(code)
        if isWarning, builder.warnings.count >= 5 { return }
        let message =
            error.pointee.message.map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "error \(code)"
        var line = Int(error.pointee.line)
        // Errors inside entity replacement text count lines from the entity: use the document's.
        if let parser = builder.parser, line == 0 || error.pointee.ctxt != UnsafeMutableRawPointer(parser) {
            line = Int(cx_ctxt_line(parser))
        }
        if isWarning {
            let warning = "parse error at line \(line): \(message)"
            if !builder.warnings.contains(warning) { builder.warnings.append(warning) }
            return
        }
        builder.firstError = (line, message, code)
        if builder.recovering { builder.stop() }
    }

    private static func makeHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, local, prefix, uri, _, _, attributeCount, _, attributes in
            XMLFeedParser.builder(context).startElement(
                local: local, prefix: prefix, uri: uri, attributeCount: attributeCount,
                rawAttributes: attributes)
        }
        sax.endElementNs = { context, _, _, _ in
            XMLFeedParser.builder(context).endElement()
        }
        sax.characters = { context, text, length in
            // The most frequent event: borrow the builder without retaining it (the parse keeps
            // it alive: `withExtendedLifetime` in `parseOnce`). `context` is never nil: it is the
            // builder handed to `xmlCreatePushParserCtxt`.
            Unmanaged<XMLFeedBuilder>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.characters(text, length)
            }
        }
        sax.ignorableWhitespace = sax.characters
        sax.cdataBlock = sax.characters
        sax.entityDecl = { context, name, type, _, _, content in
            XMLFeedParser.builder(context).declareEntity(name: name, type: type, content: content)
        }
        sax.getEntity = { context, name in
            XMLFeedParser.builder(context).entity(name)
        }
        sax.serror = recordError
        return sax
    }
}

/// Any feed document: JSON Feed when it looks like JSON, else XML (RSS, RDF, Atom).
public enum FeedParser {
    public static func parse(
        _ data: Data, baseURL: String?, httpCharset: String?
    ) throws(FeedParseError) -> ParsedFeed {
        if looksLikeJSON(data) { return try JSONFeedParser.parse(data) }
        return try XMLFeedParser.parse(data, baseURL: baseURL, httpCharset: httpCharset)
    }

    /// True when the first character after a byte-order mark and white space is `{`, in
    /// UTF-8, UTF-16 or UTF-32 (see `JSONFeedParser.utf8`).
    static func looksLikeJSON(_ data: Data) -> Bool {
        let head = data.prefix(4096)
        var bytes = (JSONFeedParser.utf8(head) ?? head)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        return first == UInt8(ascii: "{")
    }
}
