import CCurl
import Foundation
import Glibc
import Synchronization

/// One podcast episode streamed to disk: the bytes go from libcurl's buffer straight to the
/// file (16 KB at a time, whatever the episode's size), into `NAME.part` beside the file,
/// which takes the file's name once it is whole. A part left by an earlier try (a cancel, a
/// kill, a full disk) is resumed with an HTTP Range request; a server that ignores it sends
/// the whole file again, which replaces the part.
///
/// `run` blocks its thread until the download ends (libcurl's easy interface, waiting in
/// `poll`, at no CPU cost while the server is silent): callers run it on a thread of its own.
public enum EpisodeDownload {
    public struct Limits: Sendable {
        /// Bytes an episode may have (a server sending without end would fill the disk).
        public var maxBytes: Int64 = 8 << 30
        /// Seconds to connect.
        public var connectTimeout = 30
        /// A server that sends less than a byte a second for this long is given up on.
        public var stallSeconds = 60
        public var userAgent = "Herald/0.4 (terminal feed reader; +https://example.org/herald)"

        public init() {}
    }

    public enum Outcome: Sendable, Equatable {
        /// The file is whole at its path.
        case finished(bytes: Int64)
        /// Stopped by the error; `kept` bytes are in the part file for a resume.
        case failed(String, kept: Int64)
        /// Stopped by `isCancelled`; `kept` bytes are in the part file.
        case cancelled(kept: Int64)
        /// Another process (the reader, `herald podcasts download` from cron) is downloading
        /// it: its part file is locked. Nothing was written.
        case elsewhere
    }

    /// Downloads `url` to `path` (its folders made as needed). `progress` hears the bytes on
    /// disk and the whole size when known, from the download's thread; `isCancelled` is
    /// asked as bytes arrive and about once a second while none do.
    public static func run(
        url: String, to path: String, limits: Limits = Limits(),
        progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void = { _, _ in },
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> Outcome {
        guard let scheme = URL(string: url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            return .failed("only http and https episodes are downloaded (\(url.prefix(60)))", kept: 0)
        }
        // A file already whole there (the process ended between naming it and saying so).
        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFREG else {
                return .failed("\(path) is there and is not a regular file", kept: 0)
            }
            return .finished(bytes: Int64(existing.st_size))
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot make the folder \(folder): \(Self.reason(error))", kept: 0)
        }
        let part = path + ".part"
        // O_NOFOLLOW: a link put where the part goes is not written through.
        let fd = open(part, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            return .failed("cannot write \(part): \(String(cString: strerror(errno)))", kept: 0)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failed("\(part) is not a regular file", kept: 0)
        }
        // One writer per part, whatever the process: the lock goes with the descriptor.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK { return .elsewhere }
            return .failed("cannot lock \(part): \(String(cString: strerror(errno)))", kept: Int64(status.st_size))
        }
        // Locked, it must still be the part under that name (another process may have
        // finished it, renamed it and let go of it between the open and the lock); its size
        // is read again under the lock.
        var named = stat()
        guard fstat(fd, &status) == 0, lstat(part, &named) == 0, named.st_ino == status.st_ino,
            named.st_dev == status.st_dev, status.st_nlink > 0
        else {
            return .elsewhere
        }
        let validator = PartValidator.read(fd)
        var outcome = transfer(
            url: url, fd: fd, label: part, offset: Int64(status.st_size), validator: validator, limits: limits,
            progress: progress, isCancelled: isCancelled)
        if case .restart = outcome {
            // The part did not fit the file the server has now: from the first byte.
            guard ftruncate(fd, 0) == 0 else {
                return .failed(Self.diskError(errno, part: part, kept: Int64(status.st_size)), kept: Int64(status.st_size))
            }
            outcome = transfer(
                url: url, fd: fd, label: part, offset: 0, validator: nil, limits: limits, progress: progress,
                isCancelled: isCancelled)
        }
        switch outcome {
        case .done(let bytes):
            guard fsync(fd) == 0 || errno == EINVAL else {
                return .failed(Self.diskError(errno, part: part, kept: bytes), kept: bytes)
            }
            guard rename(part, path) == 0 else {
                return .failed("cannot name the file \(path): \(String(cString: strerror(errno)))", kept: bytes)
            }
            return .finished(bytes: bytes)
        case .stopped(let result): return result
        case .restart: return .failed("the server would not resume the download", kept: 0)
        }
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    enum Attempt {
        case done(Int64)
        case stopped(Outcome)
        /// The part must go and the download start over.
        case restart
    }

    /// One request, its body written to `fd` from `offset` (asked for with a Range). Also
    /// what tests call with a file descriptor they chose (`/dev/full`: a full disk).
    static func transfer(
        url: String, fd: Int32, label: String, offset: Int64, validator: String? = nil, limits: Limits,
        progress: @escaping @Sendable (Int64, Int64?) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) -> Attempt {
        Self.globalInit
        // Always: a start over after a truncate must write from the first byte again.
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            return .stopped(.failed("cannot seek in \(label): \(String(cString: strerror(errno)))", kept: offset))
        }
        guard let easy = curl_easy_init() else { return .stopped(.failed("out of memory", kept: offset)) }
        defer { curl_easy_cleanup(easy) }
        let sink = EpisodeSink(
            easy: easy, fd: fd, label: label, offset: offset, limit: limits.maxBytes, progress: progress,
            isCancelled: isCancelled)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        hc_setopt_string(easy, CURLOPT_URL, url)
        hc_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        hc_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        hc_setopt_long(easy, CURLOPT_MAXREDIRS, 10)
        // The network gives http and https only, redirects included (never file: or ftp:).
        hc_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        hc_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // No Accept-Encoding: the bytes on disk are the bytes sent, and the size cap counts them.
        hc_setopt_string(easy, CURLOPT_USERAGENT, limits.userAgent)
        hc_setopt_long(easy, CURLOPT_CONNECTTIMEOUT, limits.connectTimeout)
        hc_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        hc_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, limits.stallSeconds)
        // A Range of our own, not CURLOPT_RESUME_FROM: libcurl fails a resume the server
        // answers with the whole file (200), which is taken here instead (the part is replaced).
        if offset > 0 { hc_setopt_string(easy, CURLOPT_RANGE, "\(offset)-") }
        // The rest only if the file is still the one the part began: else the whole (a 200).
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        if offset > 0, let validator {
            headers = curl_slist_append(headers, "If-Range: \(validator)")
            hc_setopt_list(easy, CURLOPT_HTTPHEADER, headers)
        }
        hc_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        hc_setopt_data_fn(easy, CURLOPT_WRITEFUNCTION, episodeWrite)
        hc_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        hc_setopt_data_fn(easy, CURLOPT_HEADERFUNCTION, episodeHeader)
        hc_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        hc_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        hc_setopt_xferinfo_fn(easy, episodeProgress)
        hc_setopt_pointer(easy, CURLOPT_XFERINFODATA, context)
        let code = curl_easy_perform(easy)
        var status = 0
        hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let kept = sink.written
        if let stop = sink.stop { return stop }
        if code == CURLE_ABORTED_BY_CALLBACK { return .stopped(.cancelled(kept: kept)) }
        if status == 416, offset > 0 {
            // Nothing left to send from there: the part is whole when the server says its
            // size is the part's, else it is not this file's.
            if sink.rangeTotal == offset { return .done(offset) }
            return .restart
        }
        if code == CURLE_OK, !(200..<300).contains(status) || status == 204 {
            return .stopped(.failed("the server answered \(status)", kept: kept))
        }
        if code == CURLE_OK, !sink.started, offset == 0 {
            return .stopped(.failed("the server sent nothing", kept: kept))
        }
        guard code == CURLE_OK else {
            let words = String(cString: errorBuffer)
            let why: String
            switch code {
            case CURLE_OPERATION_TIMEDOUT where sink.started:
                why = "the server stopped sending (nothing for \(limits.stallSeconds) s)"
            case CURLE_OPERATION_TIMEDOUT: why = "no answer from the server (\(words))"
            case CURLE_UNSUPPORTED_PROTOCOL: why = "refused a redirect to another scheme than http and https"
            case CURLE_TOO_MANY_REDIRECTS: why = "too many redirects (or a redirect loop)"
            default: why = words.isEmpty ? String(cString: curl_easy_strerror(code)) : words
            }
            return .stopped(.failed(why, kept: kept))
        }
        if let total = sink.total, kept < total {
            return .stopped(.failed("the server sent \(kept) of \(total) bytes", kept: kept))
        }
        return .done(kept)
    }

    static func diskError(_ code: Int32, part: String, kept: Int64) -> String {
        let megabytes = String(format: "%.1f", Double(kept) / 1_048_576)
        switch code {
        case ENOSPC, EDQUOT:
            return "the disk is full (\(String(cString: strerror(code)))): \(megabytes) MB kept in \(part) for a resume"
        default:
            return "cannot write \(part): \(String(cString: strerror(code))) (\(megabytes) MB kept for a resume)"
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            posix.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(posix.code)))
        }
        return error.localizedDescription
    }
}

/// What one transfer's callbacks share (libcurl calls them on the thread in
/// `curl_easy_perform`, the only one that touches it).
private final class EpisodeSink {
    let easy: UnsafeMutableRawPointer
    let fd: Int32
    /// The part file's path, for messages.
    let label: String
    let offset: Int64
    let limit: Int64
    let progress: @Sendable (Int64, Int64?) -> Void
    let isCancelled: @Sendable () -> Bool
    /// Bytes in the file (the part's, then what this response added).
    var written: Int64
    /// The whole file's size, when the response says.
    var total: Int64?
    var etag: String?
    var lastModified: String?
    /// What identifies the file the body is of: its strong ETag, else its date.
    var validator: String? { etag ?? lastModified }
    /// From a 416's `Content-Range: bytes */N`.
    var rangeTotal: Int64?
    var contentRangeStart: Int64?
    /// The body's first bytes were seen (its status checked).
    var started = false
    /// The response is a 416: its body is not the file's.
    var discarding = false
    /// Set when a callback stopped the transfer, with what it came to.
    var stop: EpisodeDownload.Attempt?

    init(
        easy: UnsafeMutableRawPointer, fd: Int32, label: String, offset: Int64, limit: Int64,
        progress: @escaping @Sendable (Int64, Int64?) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) {
        (self.easy, self.fd, self.label, self.offset, self.limit, self.progress, self.isCancelled) =
            (easy, fd, label, offset, limit, progress, isCancelled)
        written = offset
    }

    func header(_ line: Substring) {
        if line.hasPrefix("HTTP/") {
            // A redirect's or an interim response's headers are not the body's.
            (contentRangeStart, rangeTotal, etag, lastModified) = (nil, nil, nil, nil)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let text = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if name == "etag", !text.hasPrefix("W/") { etag = text }  // a weak one cannot validate a range
        if name == "last-modified" { lastModified = text }
        guard name == "content-range" else { return }
        // bytes START-END/TOTAL, or bytes */TOTAL
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.lowercased().hasPrefix("bytes") else { return }
        let spec = value.dropFirst(5).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        if halves.count == 2 { rangeTotal = Int64(halves[1]) }
        if let first = halves.first, let dash = first.firstIndex(of: "-") { contentRangeStart = Int64(first[..<dash]) }
    }

    func body(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !started {
            started = true
            // What the file is (its ETag, else its date), kept with the part for an If-Range.
            PartValidator.write(validator, to: fd)
            var status = 0
            hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if status == 416 {
                discarding = true
                return bytes.count
            }
            guard (200..<300).contains(status) else {
                stop = .stopped(.failed("the server answered \(status)", kept: written))
                return 0
            }
            var length: curl_off_t = -1
            hc_getinfo_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
            if status == 206 {
                guard contentRangeStart == offset else {
                    stop = .restart
                    return 0
                }
                total = rangeTotal ?? (length >= 0 ? offset + Int64(length) : nil)
            } else {
                // The whole file (a server that ignores Range sends it all): the part goes.
                if offset > 0 {
                    guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
                        stop = .stopped(.failed(EpisodeDownload.diskError(errno, part: label, kept: written), kept: written))
                        return 0
                    }
                    written = 0
                }
                total = length >= 0 ? Int64(length) : nil
            }
            if let total, total > limit {
                stop = .stopped(.failed("the episode is \(total >> 20) MB, over the \(limit >> 20) MB limit", kept: written))
                return 0
            }
        }
        // A 416's page (the part is whole, or not this file's: `transfer` looks at the status).
        if discarding { return bytes.count }
        guard written + Int64(bytes.count) <= limit else {
            stop = .stopped(.failed("the episode grew past the \(limit >> 20) MB limit", kept: written))
            return 0
        }
        var rest = bytes
        while !rest.isEmpty {
            let count = Glibc.write(fd, rest.baseAddress, rest.count)
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                // What was written before the error is on disk: keep the part at that size.
                _ = ftruncate(fd, off_t(written))
                stop = .stopped(.failed(EpisodeDownload.diskError(code, part: label, kept: written), kept: written))
                return 0
            }
            written += Int64(count)
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
        }
        progress(written, total)
        return bytes.count
    }
}

/// The file a part is of, as its server named it (`ETag`, else `Last-Modified`), kept in an
/// extended attribute of the part so a resume asks for the rest only of that file (`If-Range`).
/// On a file system without extended attributes a resume goes without (as podboat's does).
enum PartValidator {
    static let name = "user.herald.validator"

    static func read(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = fgetxattr(fd, name, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        // Kept by this program, but a header line all the same: no line breaks or controls.
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return text
    }

    static func write(_ value: String?, to fd: Int32) {
        guard let value, !value.isEmpty, value.utf8.count < 512,
            !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            fremovexattr(fd, name)
            return
        }
        _ = value.withCString { fsetxattr(fd, name, $0, strlen($0), 0) }
    }
}

private let episodeWrite: herald_curl_data_fn = { data, size, count, context in
    guard let context, let data else { return 0 }
    let sink = Unmanaged<EpisodeSink>.fromOpaque(context).takeUnretainedValue()
    return sink.body(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let episodeHeader: herald_curl_data_fn = { data, size, count, context in
    guard let context, let data else { return 0 }
    let sink = Unmanaged<EpisodeSink>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    sink.header(Substring(decoding: bytes, as: UTF8.self))
    return size * count
}

private let episodeProgress: herald_curl_xferinfo_fn = { context, _, _, _, _ in
    guard let context else { return 0 }
    let sink = Unmanaged<EpisodeSink>.fromOpaque(context).takeUnretainedValue()
    return sink.isCancelled() ? 1 : 0
}
