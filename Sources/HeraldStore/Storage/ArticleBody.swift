import CZlib

/// An article's text and HTML as the library stores them: one blob, both deflated in one
/// stream, text first.
///
/// The text is derived from the HTML (plus the numbered links), so deflating the HTML after
/// the text lets every run of words in it point back at the text: the pair costs about what
/// the HTML alone costs. The text is kept rather than derived again on reading because the
/// search index is contentless: removing an article's entry needs exactly the text that was
/// indexed, whatever a later Herald's HTML-to-text conversion would make of the HTML.
///
/// Layout: a format byte (0 stored, 1 raw deflate), the CRC-32 of the text and HTML (4 bytes,
/// little-endian), the text's UTF-8 length as a varint, the HTML's length plus one as a varint
/// (0: no HTML), then the payload. The CRC and lengths (`ArticleBody.Digest`) tell an item
/// read again unchanged without deflating it.
enum ArticleBody {
    static let stored: UInt8 = 0
    static let deflated: UInt8 = 1

    /// Payloads below this are stored as they are: deflate gains nothing on a line or two.
    static let smallest = 96

    /// What identifies a body's content: its lengths and CRC-32. Two bodies with the same
    /// digest are taken as equal (a changed article keeps its CRC once in 4 billion times,
    /// and then only if its lengths did not change either).
    struct Digest: Equatable {
        var textCount: Int
        var htmlCount: Int?
        var crc: UInt32

        init(textCount: Int, htmlCount: Int?, crc: UInt32) {
            (self.textCount, self.htmlCount, self.crc) = (textCount, htmlCount, crc)
        }

        init(text: String, html: String?) {
            var text = text
            var html = html
            var crc = text.withUTF8 { ArticleBody.crc(0, $0) }
            if html != nil { crc = html!.withUTF8 { ArticleBody.crc(crc, $0) } }
            self.init(textCount: text.utf8.count, htmlCount: html?.utf8.count, crc: crc)
        }

        /// The digest a blob's header records.
        init(blob: UnsafeRawBufferPointer) throws(DamagedBody) {
            var offset = 0
            self = try ArticleBody.header(blob, &offset).digest
        }
    }

    static func crc(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(crc32_z(UInt(crc), bytes.baseAddress, bytes.count))
    }

    /// The format and digest of a blob; `offset` is left at the payload.
    static func header(
        _ blob: UnsafeRawBufferPointer, _ offset: inout Int
    ) throws(DamagedBody) -> (format: UInt8, digest: Digest) {
        guard blob.count >= 5, blob[0] == stored || blob[0] == deflated else {
            throw DamagedBody(description: "article body: unknown format")
        }
        let crc = UInt32(blob[1]) | UInt32(blob[2]) << 8 | UInt32(blob[3]) << 16 | UInt32(blob[4]) << 24
        offset = 5
        let textCount = try readVarint(blob, at: &offset)
        let htmlCount = try readVarint(blob, at: &offset)
        // A damaged header must not make a huge allocation or overflow a sum: no article
        // comes from a feed larger than the fetcher's cap.
        let largest = 64 * 1_048_576
        guard (0...largest).contains(textCount), (0...largest + 1).contains(htmlCount) else {
            throw DamagedBody(description: "article body: impossible length")
        }
        return (
            blob[0], Digest(textCount: textCount, htmlCount: htmlCount == 0 ? nil : htmlCount - 1, crc: crc)
        )
    }

    /// Why a stored body could not be read back.
    struct DamagedBody: Error, CustomStringConvertible {
        var description: String
    }

    static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var value = UInt64(value)
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func readVarint(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) throws(DamagedBody) -> Int {
        var value = 0
        var shift = 0
        while offset < bytes.count, shift < 63 {
            let byte = bytes[offset]
            offset += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw DamagedBody(description: "article body: truncated length")
    }
}

/// Packs and unpacks `ArticleBody` blobs. Keeps one deflate and one inflate stream for its
/// lifetime and resets them per article: setting a deflate stream up allocates and clears
/// about 270 KB, which cost more than compressing a typical article.
///
/// Not `Sendable`: it belongs to the store, on the database actor.
final class ArticleBodyCodec {
    /// zlib's level. On full-content feeds level 6 made bodies 7% smaller than level 1
    /// (about 150 B an article) for twice the CPU, and deflate was then a third of what
    /// storing an article cost without the search index. The level is not recorded: any
    /// level inflates the same way.
    static let level: Int32 = 1

    /// zlib's memory level: 6 makes a deflate stream 160 KB instead of zlib's default 256 KB
    /// (a reload keeps one per parse thread and one in the store) and compressed the
    /// full-content corpus as well (0.433 of its size against 0.432), as fast.
    static let memoryLevel: Int32 = 6

    private let deflater: UnsafeMutablePointer<z_stream>
    private let inflater: UnsafeMutablePointer<z_stream>
    /// Where `pack` builds a blob (it keeps the capacity it needed, up to `largestScratch`).
    private var scratch: [UInt8] = []
    private static let largestScratch = 256 * 1024

    init() {
        // The streams are allocated rather than stored inline: zlib keeps a pointer back to
        // each stream and checks it, so they must not move.
        deflater = .allocate(capacity: 1)
        deflater.initialize(to: z_stream())
        inflater = .allocate(capacity: 1)
        inflater.initialize(to: z_stream())
        let deflateStatus = cz_deflate_init(deflater, Self.level, Self.memoryLevel)
        let inflateStatus = cz_inflate_init(inflater)
        // Initialisation fails only when out of memory or on a zlib ABI mismatch; neither
        // leaves a way to store an article.
        precondition(deflateStatus == Z_OK && inflateStatus == Z_OK, "zlib could not be initialised")
    }

    deinit {
        deflateEnd(deflater)
        inflateEnd(inflater)
        deflater.deallocate()
        inflater.deallocate()
    }

    /// The blob for `text` and `html`; `crc`, when given, is their CRC-32 already computed
    /// (`ArticleBody.Digest`), not computed again.
    func pack(text: String, html: String?, crc: UInt32? = nil) -> [UInt8] {
        var text = text
        var html = html
        return text.withUTF8 { textBytes in
            if html == nil { return pack(textBytes, nil, crc: crc) }
            return html!.withUTF8 { pack(textBytes, $0, crc: crc) }
        }
    }

    /// The blob is built in `scratch` and copied out at its exact size: a blob waits in
    /// memory until its feed is written, and one reserved at deflate's bound (the size of
    /// the text and HTML) held four times the bytes it kept.
    private func pack(
        _ text: UnsafeBufferPointer<UInt8>, _ html: UnsafeBufferPointer<UInt8>?, crc known: UInt32?
    ) -> [UInt8] {
        let total = text.count + (html?.count ?? 0)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(ArticleBody.stored)
        var crc = known ?? ArticleBody.crc(0, text)
        if known == nil, let html { crc = ArticleBody.crc(crc, html) }
        scratch += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
        ArticleBody.appendVarint(text.count, to: &scratch)
        ArticleBody.appendVarint(html.map { $0.count + 1 } ?? 0, to: &scratch)
        let header = scratch.count
        defer {
            // One huge article must not keep its buffer for the codec's lifetime.
            if scratch.capacity > Self.largestScratch { scratch = [] }
        }
        if total >= ArticleBody.smallest, let written = deflateAll(text, html, after: header) {
            scratch[0] = ArticleBody.deflated
            return Array(scratch[..<(header + written)])
        }
        var out: [UInt8] = []
        out.reserveCapacity(header + total)
        out += scratch[..<header]
        out.append(contentsOf: text)
        if let html { out.append(contentsOf: html) }
        return out
    }

    /// Deflates the text and HTML into `scratch` after its first `header` bytes; the bytes
    /// written, or nil when that is not smaller than the bytes themselves.
    private func deflateAll(
        _ text: UnsafeBufferPointer<UInt8>, _ html: UnsafeBufferPointer<UInt8>?, after header: Int
    ) -> Int? {
        let total = text.count + (html?.count ?? 0)
        let capacity = Int(deflateBound(deflater, UInt(total)))
        if scratch.count < header + capacity {
            scratch.append(contentsOf: repeatElement(0, count: header + capacity - scratch.count))
        }
        let written = scratch.withUnsafeMutableBufferPointer { buffer -> Int? in
            let stream = deflater
            deflateReset(stream)
            stream.pointee.next_out = buffer.baseAddress! + header
            stream.pointee.avail_out = UInt32(capacity)
            // zlib's next_in is not const (no ZLIB_CONST); deflate never writes through it.
            stream.pointee.next_in = UnsafeMutablePointer(mutating: text.baseAddress)
            stream.pointee.avail_in = UInt32(text.count)
            if let html {
                guard deflate(stream, Z_NO_FLUSH) == Z_OK, stream.pointee.avail_in == 0 else { return nil }
                stream.pointee.next_in = UnsafeMutablePointer(mutating: html.baseAddress)
                stream.pointee.avail_in = UInt32(html.count)
            }
            guard deflate(stream, Z_FINISH) == Z_STREAM_END else { return nil }
            return capacity - Int(stream.pointee.avail_out)
        }
        guard let written, written < total else { return nil }
        return written
    }

    /// The text and HTML of a blob.
    func unpack(_ blob: UnsafeRawBufferPointer) throws(ArticleBody.DamagedBody) -> (
        text: String, html: String?
    ) {
        var offset = 0
        let (format, digest) = try ArticleBody.header(blob, &offset)
        let (textCount, htmlCount) = (digest.textCount, digest.htmlCount)
        let payload = UnsafeRawBufferPointer(rebasing: blob[offset...])
        if format == ArticleBody.stored {
            guard payload.count == textCount + (htmlCount ?? 0) else {
                throw ArticleBody.DamagedBody(description: "article body: wrong length")
            }
            let text = String(decoding: payload[..<textCount], as: UTF8.self)
            return (text, htmlCount.map { _ in String(decoding: payload[textCount...], as: UTF8.self) })
        }
        inflateReset(inflater)
        inflater.pointee.next_in = UnsafeMutablePointer(
            mutating: payload.baseAddress?.assumingMemoryBound(to: UInt8.self))
        inflater.pointee.avail_in = UInt32(payload.count)
        let text = try inflate(count: textCount, last: htmlCount == nil)
        let html = try htmlCount.map { count throws(ArticleBody.DamagedBody) in
            try inflate(count: count, last: true)
        }
        guard ArticleBody.Digest(text: text, html: html) == digest else {
            throw ArticleBody.DamagedBody(description: "article body: damaged (CRC)")
        }
        return (text, html)
    }

    /// The text of a blob alone (what the search index holds): the HTML is not inflated.
    func unpackText(_ blob: UnsafeRawBufferPointer) throws(ArticleBody.DamagedBody) -> String {
        var offset = 0
        let (format, digest) = try ArticleBody.header(blob, &offset)
        let (textCount, htmlCount) = (digest.textCount, digest.htmlCount)
        let payload = UnsafeRawBufferPointer(rebasing: blob[offset...])
        if format == ArticleBody.stored {
            guard payload.count >= textCount else {
                throw ArticleBody.DamagedBody(description: "article body: wrong length")
            }
            return String(decoding: payload[..<textCount], as: UTF8.self)
        }
        inflateReset(inflater)
        inflater.pointee.next_in = UnsafeMutablePointer(
            mutating: payload.baseAddress?.assumingMemoryBound(to: UInt8.self))
        inflater.pointee.avail_in = UInt32(payload.count)
        return try inflate(count: textCount, last: htmlCount == nil)
    }

    /// The next `count` bytes of the inflater's output, as a string.
    private func inflate(count: Int, last: Bool) throws(ArticleBody.DamagedBody) -> String {
        guard count > 0 else { return "" }
        let stream = inflater
        var status = Z_OK
        let text = String(unsafeUninitializedCapacity: count) { buffer in
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(count)
            status = CZlib.inflate(stream, last ? Z_FINISH : Z_SYNC_FLUSH)
            return count - Int(stream.pointee.avail_out)
        }
        let complete = last ? status == Z_STREAM_END : (status == Z_OK || status == Z_STREAM_END)
        guard complete, stream.pointee.avail_out == 0 else {
            throw ArticleBody.DamagedBody(description: "article body: damaged (zlib status \(status))")
        }
        return text
    }
}
