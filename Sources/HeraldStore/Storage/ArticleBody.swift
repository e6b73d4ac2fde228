import CZlib
import CZstd

/// An article's text and HTML as the library stores them: one blob, both compressed in one
/// Zstandard frame, text first.
///
/// The text is derived from the HTML (plus the numbered links), so compressing the HTML
/// after the text lets every run of words in it point back at the text: the pair costs
/// about what the HTML alone costs. The text is kept rather than derived again on reading because the
/// search index is contentless: removing an article's entry needs exactly the text that was
/// indexed, whatever a later Herald's HTML-to-text conversion would make of the HTML.
///
/// Layout: a format byte (0 stored, 1 raw deflate, 2 a Zstandard frame), the CRC-32 of the
/// text and HTML (4 bytes, little-endian), the text's UTF-8 length as a varint, the HTML's
/// length plus one as a varint (0: no HTML), then the payload. The CRC and lengths
/// (`ArticleBody.Digest`) tell an item read again unchanged without compressing it.
///
/// Bodies are written as Zstandard; deflated ones, written by Herald before, are read as
/// they are (nothing rewrites them).
enum ArticleBody {
    static let stored: UInt8 = 0
    static let deflated: UInt8 = 1
    static let zstandard: UInt8 = 2

    /// Payloads below this are stored as they are: compressing gains nothing on a line or two.
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
        guard blob.count >= 5, blob[0] == stored || blob[0] == deflated || blob[0] == zstandard else {
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

/// Packs and unpacks `ArticleBody` blobs. Keeps its Zstandard contexts (and an inflate
/// stream, for bodies deflated by an older Herald) for its lifetime: setting one up
/// allocates and clears more than compressing a typical article costs.
///
/// Zstandard at level 1 against zlib's deflate at level 1 (what Herald wrote before), on
/// the full-content corpus's articles (about 6 KB of text and HTML each): the same size, and
/// about three times the speed; compressing had been a fifth of a cold reload's CPU.
///
/// Not `Sendable`: it belongs to the store, on the database actor, or to one parse thread.
final class ArticleBodyCodec {
    /// Zstandard's level: its fastest regular one.
    static let level: Int32 = 1

    private let compressor: OpaquePointer
    private let decompressor: OpaquePointer
    /// Made on first use: only libraries written by an older Herald have deflated bodies.
    private var inflater: UnsafeMutablePointer<z_stream>?
    /// Where `pack` builds a blob and joins the text and HTML (each keeps the capacity it
    /// needed, up to `largestScratch`), and where `unpack` decompresses.
    private var scratch: [UInt8] = []
    private var joined: [UInt8] = []
    private static let largestScratch = 256 * 1024

    init() {
        // Creating a context fails only when out of memory; that leaves no way to store
        // an article.
        guard let compressor = ZSTD_createCCtx(), let decompressor = ZSTD_createDCtx() else {
            preconditionFailure("Zstandard could not be initialised")
        }
        (self.compressor, self.decompressor) = (compressor, decompressor)
        ZSTD_CCtx_setParameter(compressor, ZSTD_c_compressionLevel, Self.level)
        // The blob's header has the lengths and a CRC of its own.
        ZSTD_CCtx_setParameter(compressor, ZSTD_c_checksumFlag, 0)
        ZSTD_CCtx_setParameter(compressor, ZSTD_c_contentSizeFlag, 0)
    }

    deinit {
        ZSTD_freeCCtx(compressor)
        ZSTD_freeDCtx(decompressor)
        if let inflater {
            inflateEnd(inflater)
            inflater.deallocate()
        }
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
    /// memory until its feed is written, and one reserved at the compressor's bound (the
    /// size of the text and HTML) held four times the bytes it kept.
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
            // One huge article must not keep its buffers for the codec's lifetime.
            if scratch.capacity > Self.largestScratch { scratch = [] }
            if joined.capacity > Self.largestScratch { joined = [] }
        }
        if total >= ArticleBody.smallest, let written = compressAll(text, html, after: header) {
            scratch[0] = ArticleBody.zstandard
            return Array(scratch[..<(header + written)])
        }
        var out: [UInt8] = []
        out.reserveCapacity(header + total)
        out += scratch[..<header]
        out.append(contentsOf: text)
        if let html { out.append(contentsOf: html) }
        return out
    }

    /// Compresses the text and HTML (one frame, the HTML after the text) into `scratch`
    /// after its first `header` bytes; the bytes written, or nil when that is not smaller
    /// than the bytes themselves.
    private func compressAll(
        _ text: UnsafeBufferPointer<UInt8>, _ html: UnsafeBufferPointer<UInt8>?, after header: Int
    ) -> Int? {
        guard let html else { return compress(UnsafeRawBufferPointer(text), after: header) }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: text)
        joined.append(contentsOf: html)
        return joined.withUnsafeBytes { compress($0, after: header) }
    }

    /// Compresses `input` into `scratch` after its first `header` bytes (a text without HTML
    /// is compressed where it is, not copied first).
    private func compress(_ input: UnsafeRawBufferPointer, after header: Int) -> Int? {
        let capacity = ZSTD_compressBound(input.count)
        if scratch.count < header + capacity {
            scratch.append(contentsOf: repeatElement(0, count: header + capacity - scratch.count))
        }
        let written = scratch.withUnsafeMutableBytes { buffer in
            ZSTD_compress2(compressor, buffer.baseAddress! + header, capacity, input.baseAddress, input.count)
        }
        guard ZSTD_isError(written) == 0, written < input.count else { return nil }
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
        let text: String
        let html: String?
        switch format {
        case ArticleBody.stored:
            guard payload.count == textCount + (htmlCount ?? 0) else {
                throw ArticleBody.DamagedBody(description: "article body: wrong length")
            }
            text = String(decoding: payload[..<textCount], as: UTF8.self)
            return (text, htmlCount.map { _ in String(decoding: payload[textCount...], as: UTF8.self) })
        case ArticleBody.zstandard:
            (text, html) = try decompress(payload, textCount: textCount, htmlCount: htmlCount)
        default:
            let inflater = startInflating(payload)
            text = try inflate(inflater, count: textCount, last: htmlCount == nil)
            html = try htmlCount.map { count throws(ArticleBody.DamagedBody) in
                try inflate(inflater, count: count, last: true)
            }
        }
        guard ArticleBody.Digest(text: text, html: html) == digest else {
            throw ArticleBody.DamagedBody(description: "article body: damaged (CRC)")
        }
        return (text, html)
    }

    /// The text of a blob alone (what the search index holds): a deflated blob's HTML is not
    /// inflated.
    func unpackText(_ blob: UnsafeRawBufferPointer) throws(ArticleBody.DamagedBody) -> String {
        var offset = 0
        let (format, digest) = try ArticleBody.header(blob, &offset)
        let (textCount, htmlCount) = (digest.textCount, digest.htmlCount)
        let payload = UnsafeRawBufferPointer(rebasing: blob[offset...])
        switch format {
        case ArticleBody.stored:
            guard payload.count >= textCount else {
                throw ArticleBody.DamagedBody(description: "article body: wrong length")
            }
            return String(decoding: payload[..<textCount], as: UTF8.self)
        case ArticleBody.zstandard:
            // The frame is one block or a few for an article: decompressing the HTML too
            // costs microseconds.
            return try decompress(payload, textCount: textCount, htmlCount: htmlCount).text
        default:
            return try inflate(startInflating(payload), count: textCount, last: htmlCount == nil)
        }
    }

    /// The text and HTML of a Zstandard payload, which must make exactly that many bytes.
    private func decompress(
        _ payload: UnsafeRawBufferPointer, textCount: Int, htmlCount: Int?
    ) throws(ArticleBody.DamagedBody) -> (text: String, html: String?) {
        let total = textCount + (htmlCount ?? 0)
        defer { if scratch.capacity > Self.largestScratch { scratch = [] } }
        if scratch.count < total {
            scratch.append(contentsOf: repeatElement(0, count: total - scratch.count))
        }
        // Never more than `total` bytes: a damaged or hostile frame cannot make more.
        let made = scratch.withUnsafeMutableBytes { buffer in
            ZSTD_decompressDCtx(decompressor, buffer.baseAddress, total, payload.baseAddress, payload.count)
        }
        guard ZSTD_isError(made) == 0, made == total else {
            let why = ZSTD_isError(made) != 0 ? String(cString: ZSTD_getErrorName(made)) : "wrong length"
            throw ArticleBody.DamagedBody(description: "article body: damaged (\(why))")
        }
        return scratch.withUnsafeBytes { bytes in
            (
                String(decoding: bytes[..<textCount], as: UTF8.self),
                htmlCount.map { _ in String(decoding: bytes[textCount..<total], as: UTF8.self) }
            )
        }
    }

    /// The inflate stream, reset, reading `payload` (a body deflated by an older Herald).
    private func startInflating(_ payload: UnsafeRawBufferPointer) -> UnsafeMutablePointer<z_stream> {
        let stream: UnsafeMutablePointer<z_stream>
        if let inflater {
            stream = inflater
            inflateReset(stream)
        } else {
            // Allocated rather than stored inline: zlib keeps a pointer back to the stream
            // and checks it, so it must not move.
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // Fails only when out of memory or on a zlib ABI mismatch.
            precondition(cz_inflate_init(stream) == Z_OK, "zlib could not be initialised")
            inflater = stream
        }
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: payload.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(payload.count)
        return stream
    }

    /// The next `count` bytes of `stream`'s output, as a string.
    private func inflate(
        _ stream: UnsafeMutablePointer<z_stream>, count: Int, last: Bool
    ) throws(ArticleBody.DamagedBody) -> String {
        guard count > 0 else { return "" }
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
