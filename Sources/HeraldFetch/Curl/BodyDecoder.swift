import Foundation
import CZlib

/// Undoes a response's Content-Encoding (gzip, deflate) as its bytes arrive, handing the
/// decoded bytes on in pieces of at most 64 KB.
///
/// Herald decodes instead of libcurl so that everything a paused transfer holds is
/// compressed: libcurl decodes a whole network read before it can pause, and keeps what it
/// could not hand over — for a gzip bomb, 16 KB read became 16 MB held per paused transfer
/// (four bombs in one reload peaked at 112 MiB). Here a piece that would pass the size cap
/// stops the transfer before it is kept.
final class BodyDecoder {
    enum Outcome { case more, refused, wait, damaged(String) }
    /// What the sink did with a decoded piece.
    enum Kept { case kept, tooLarge, full }

    private var stream = z_stream()
    /// The stream as it was before the input being decoded (`checkpoint`), to go back to.
    private var saved = z_stream()
    private var hasSaved = false
    private var savedFlags = (ended: false, triedRaw: false, decodedAny: false)
    private var output = [UInt8](repeating: 0, count: 65_536)
    private var ended = false
    /// "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: on a bad
    /// header the stream starts over raw, once, before any byte was decoded.
    private var triedRaw = false
    private var decodedAny = false

    /// A decoder for `encoding` (the Content-Encoding header), or nil when the body is as it is.
    init?(encoding: String?) {
        guard let encoding = encoding?.lowercased().trimmingCharacters(in: .whitespaces),
            ["gzip", "x-gzip", "deflate"].contains(encoding)
        else { return nil }
        guard cz_inflate_init_bits(&stream, 15 + 32) == Z_OK else { return nil }
    }

    deinit {
        inflateEnd(&stream)
        if hasSaved { inflateEnd(&saved) }
    }

    /// Remembers the stream's state, so that `rollback` can undo the next `decode`.
    func checkpoint() {
        if hasSaved { inflateEnd(&saved) }
        hasSaved = inflateCopy(&saved, &stream) == Z_OK
        savedFlags = (ended, triedRaw, decodedAny)
    }

    /// Back to the last checkpoint (the input since will be given again); false if there is none.
    func rollback() -> Bool {
        guard hasSaved else { return false }
        inflateEnd(&stream)
        guard inflateCopy(&stream, &saved) == Z_OK else { return false }
        (ended, triedRaw, decodedAny) = savedFlags
        return true
    }

    /// Decodes `input`, handing each decoded piece to `sink`, which may refuse it (the body
    /// would be too large: `.refused`) or have no room for it now (`.wait`: roll back and
    /// give the same input later). Bytes after the end of the stream are ignored.
    func decode(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) -> Kept) -> Outcome {
        guard !ended, let base = input.baseAddress, !input.isEmpty else { return .more }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while stream.avail_in > 0 {
            let (status, produced) = output.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                return (status, out.count - Int(stream.avail_out))
            }
            if produced > 0 {
                decodedAny = true
                switch output.withUnsafeBytes({ sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }) {
                case .kept: break
                case .tooLarge: return .refused
                case .full: return .wait
                }
            }
            switch status {
            case Z_OK: continue
            case Z_STREAM_END:
                ended = true
                return .more
            case Z_BUF_ERROR where produced == 0 && stream.avail_in == 0:
                return .more
            case Z_DATA_ERROR where !triedRaw && !decodedAny:
                // A raw deflate stream: start over without a header, on the same input.
                triedRaw = true
                let consumedInput = input.count
                inflateEnd(&stream)
                stream = z_stream()
                guard cz_inflate_init_bits(&stream, -15) == Z_OK else { return .damaged("cannot decode") }
                stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(consumedInput)
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                return .damaged("the \(triedRaw ? "deflate" : "gzip") body is damaged (\(message))")
            }
        }
        return .more
    }
}
