import CZlib
import CZstd
import Testing

@testable import HeraldStore

@Suite("Article bodies")
struct ArticleBodyTests {
    static let korean = String(repeating: "한국어를 배우는 이야기. 도서관에서 책을 읽었다. ", count: 40)
    static let html =
        "<p>" + String(repeating: "A café &amp; <a href=\"https://x.example/1\">a link</a>. ", count: 60)
        + "</p>"

    @Test(
        "text and HTML come back exactly as they went in",
        arguments: [
            ("", nil), ("", ""), ("short", nil), ("short", "<p>short</p>"), (korean, nil),
            (korean, "<p>" + korean + "</p>"), (String(repeating: "x", count: 95), nil),
            (String(repeating: "y", count: 96), String(repeating: "<b>z</b>", count: 1000)), ("", html),
            ("Zoë 🇰🇷 東京\n\nsecond", html),
        ] as [(String, String?)])
    func roundTrip(text: String, html: String?) throws {
        let codec = ArticleBodyCodec()
        let blob = codec.pack(text: text, html: html)
        let unpacked = try blob.withUnsafeBytes { try codec.unpack($0) }
        #expect(unpacked.text == text)
        #expect(unpacked.html == html)
        #expect(try blob.withUnsafeBytes { try codec.unpackText($0) } == text)
    }

    @Test("a long article is stored compressed, text and HTML together costing less than the HTML")
    func compressesTogether() throws {
        let codec = ArticleBodyCodec()
        let text = String(repeating: "A café & a link [1]. ", count: 60)
        let blob = codec.pack(text: text, html: Self.html)
        #expect(blob.first == ArticleBody.zstandard)
        #expect(blob.count < Self.html.utf8.count / 4)
        // Packing again with the same codec gives the same bytes (unchanged rows are
        // recognised by comparing them).
        #expect(codec.pack(text: text, html: Self.html) == blob)
        #expect(ArticleBodyCodec().pack(text: text, html: Self.html) == blob)
    }

    @Test("a long text without HTML is compressed too, and the same codec then packs HTML")
    func compressesTextAlone() throws {
        let codec = ArticleBodyCodec()
        let blob = codec.pack(text: Self.korean, html: nil)
        #expect(blob.first == ArticleBody.zstandard)
        #expect(blob.count < Self.korean.utf8.count / 4)
        #expect(try blob.withUnsafeBytes { try codec.unpack($0) } == (Self.korean, nil))
        let both = codec.pack(text: Self.korean, html: Self.html)
        #expect(try both.withUnsafeBytes { try codec.unpack($0) } == (Self.korean, Self.html))
        #expect(codec.pack(text: Self.korean, html: nil) == blob)
    }

    @Test("a short body is stored as it is")
    func storesShortBodies() {
        let blob = ArticleBodyCodec().pack(text: "hi", html: "<p>hi</p>")
        #expect(blob.count == 5 + 2 + 11 && blob.first == ArticleBody.stored)
        #expect(Array(blob.suffix(13)) == [2, 10] + Array("hi<p>hi</p>".utf8))
    }

    @Test("a damaged or truncated blob is an error, not a crash", arguments: [0, 1, 2, 3, 10, 40])
    func damaged(keeping count: Int) throws {
        let codec = ArticleBodyCodec()
        let blob = codec.pack(text: Self.korean, html: Self.html)
        #expect(throws: ArticleBody.DamagedBody.self) {
            try Array(blob.prefix(count)).withUnsafeBytes { try codec.unpack($0) }
        }
        var flipped = blob
        flipped[0] = 7
        #expect(throws: ArticleBody.DamagedBody.self) { try flipped.withUnsafeBytes { try codec.unpack($0) } }
        var garbled = blob
        garbled[blob.count / 2] ^= 0x20
        #expect(throws: ArticleBody.DamagedBody.self) { try garbled.withUnsafeBytes { try codec.unpack($0) } }
        // The codec still works after a failure.
        #expect(try blob.withUnsafeBytes { try codec.unpack($0) }.text == Self.korean)
    }

    @Test("the digest in a blob's header is that of its text and HTML, and tells changes apart")
    func digest() throws {
        let codec = ArticleBodyCodec()
        for (text, html) in [("", nil), ("a", "<p>a</p>"), (Self.korean, Self.html)] as [(String, String?)] {
            let stored = try codec.pack(text: text, html: html).withUnsafeBytes {
                try ArticleBody.Digest(blob: $0)
            }
            #expect(stored == ArticleBody.Digest(text: text, html: html))
        }
        #expect(ArticleBody.Digest(text: "ab", html: nil) != ArticleBody.Digest(text: "ab", html: ""))
        #expect(ArticleBody.Digest(text: "ab", html: "c") != ArticleBody.Digest(text: "a", html: "bc"))
        #expect(ArticleBody.Digest(text: "ab", html: "c") != ArticleBody.Digest(text: "ab", html: "d"))
    }

    @Test("a packed body holds about its own bytes in memory, not room for the text and HTML")
    func packedBodyIsExactSize() throws {
        let codec = ArticleBodyCodec()
        let text = String(repeating: "A café & a link [1]. ", count: 60)
        let blob = codec.pack(text: text, html: Self.html)
        // A reload keeps every blob of the feeds it is writing until they are stored.
        #expect(blob.capacity < blob.count * 2)
        #expect(blob.count < Self.html.utf8.count / 4)
    }

    @Test("a CRC given to pack (the digest's) gives the same blob as one computed by it")
    func packWithKnownCRC() throws {
        let codec = ArticleBodyCodec()
        let text = String(repeating: "A café & a link [1]. ", count: 60)
        let digest = ArticleBody.Digest(text: text, html: Self.html)
        #expect(
            codec.pack(text: text, html: Self.html, crc: digest.crc)
                == codec.pack(text: text, html: Self.html))
        let short = ArticleBody.Digest(text: "short", html: nil)
        #expect(codec.pack(text: "short", html: nil, crc: short.crc) == codec.pack(text: "short", html: nil))
    }
}

/// Bodies an older Herald wrote: text and HTML deflated in one raw stream (format 1).
@Suite("Deflated article bodies")
struct DeflatedArticleBodyTests {
    /// A body as Herald wrote it before Zstandard: the same header, then raw deflate.
    static func deflatedBlob(text: String, html: String?) throws -> [UInt8] {
        let digest = ArticleBody.Digest(text: text, html: html)
        var blob = [ArticleBody.deflated]
        blob += (0..<4).map { UInt8(digest.crc >> (8 * $0) & 0xFF) }
        ArticleBody.appendVarint(digest.textCount, to: &blob)
        ArticleBody.appendVarint(digest.htmlCount.map { $0 + 1 } ?? 0, to: &blob)
        var input = Array(text.utf8) + Array((html ?? "").utf8)
        var output = [UInt8](repeating: 0, count: input.count + 1024)
        var stream = z_stream()
        #expect(cz_deflate_init(&stream, 6, 8) == Z_OK)
        defer { deflateEnd(&stream) }
        let written = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                let status = deflate(&stream, Z_FINISH)
                return status == Z_STREAM_END ? output.count - Int(stream.avail_out) : -1
            }
        }
        try #require(written > 0)
        return blob + output[..<written]
    }

    @Test("a deflated body still reads, text alone too, and damage to it is an error")
    func readsDeflated() throws {
        let codec = ArticleBodyCodec()
        for (text, html) in [
            (ArticleBodyTests.korean, ArticleBodyTests.html), (ArticleBodyTests.korean, nil),
            ("", ArticleBodyTests.html),
        ] as [(String, String?)] {
            let blob = try Self.deflatedBlob(text: text, html: html)
            let unpacked = try blob.withUnsafeBytes { try codec.unpack($0) }
            #expect(unpacked.text == text && unpacked.html == html)
            #expect(try blob.withUnsafeBytes { try codec.unpackText($0) } == text)
            // A new body for the same article is Zstandard, with the same digest.
            let packed = codec.pack(text: text, html: html)
            #expect(packed.first == ArticleBody.zstandard)
            #expect(
                try packed.withUnsafeBytes { try ArticleBody.Digest(blob: $0) }
                    == blob.withUnsafeBytes { try ArticleBody.Digest(blob: $0) })
            var garbled = blob
            garbled[blob.count / 2] ^= 0x20
            #expect(throws: ArticleBody.DamagedBody.self) {
                try garbled.withUnsafeBytes { try codec.unpack($0) }
            }
        }
    }
}

@Suite("Damaged article bodies")
struct DamagedArticleBodyTests {
    @Test("a Zstandard frame that makes more (or fewer) bytes than its header says is an error")
    func frameOfTheWrongSize() throws {
        let codec = ArticleBodyCodec()
        // A frame of 1 MB of zeros under a header that says 10 bytes of text: a bomb stops
        // at 10 bytes.
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var frame = [UInt8](repeating: 0, count: ZSTD_compressBound(zeros.count))
        let written = frame.withUnsafeMutableBytes { out in
            zeros.withUnsafeBytes { ZSTD_compress(out.baseAddress, out.count, $0.baseAddress, $0.count, 1) }
        }
        try #require(ZSTD_isError(written) == 0)
        for claimed in [10, (1 << 20) + 1] {
            var blob: [UInt8] = [ArticleBody.zstandard, 0, 0, 0, 0]
            ArticleBody.appendVarint(claimed, to: &blob)
            ArticleBody.appendVarint(0, to: &blob)
            blob += frame[..<written]
            #expect(throws: ArticleBody.DamagedBody.self) {
                try blob.withUnsafeBytes { try codec.unpack($0) }
            }
            #expect(throws: ArticleBody.DamagedBody.self) {
                try blob.withUnsafeBytes { try codec.unpackText($0) }
            }
        }
    }

    @Test("a header claiming an impossible length is an error, not a crash or a huge allocation")
    func impossibleLengths() throws {
        let codec = ArticleBodyCodec()
        // Format "stored", a CRC, then a text length of 2^62 (varint) and no HTML.
        var blob: [UInt8] = [ArticleBody.stored, 0, 0, 0, 0]
        ArticleBody.appendVarint(1 << 62, to: &blob)
        ArticleBody.appendVarint(0, to: &blob)
        blob += Array("text".utf8)
        #expect(throws: ArticleBody.DamagedBody.self) { try blob.withUnsafeBytes { try codec.unpack($0) } }
        #expect(throws: ArticleBody.DamagedBody.self) {
            try blob.withUnsafeBytes { try codec.unpackText($0) }
        }
    }
}
