import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session-level delegate behind `FeedFetcher` (on Linux only a session delegate sees
/// redirects). It collects each task's body up to the size cap, counts redirects and notes
/// whether they were all permanent, and resumes the fetch when the task completes.
final class FetchSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState {
        var data = Data()
        var redirects = 0
        var allPermanent = true
        var tooLarge = false
        var tooManyRedirects = false
        var continuation: CheckedContinuation<FetchResult, any Error>?
    }

    private let states = Mutex<[Int: TaskState]>([:])
    private let maxBytes: Int
    private let maxRedirects: Int

    init(maxBytes: Int, maxRedirects: Int) {
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
    }

    func run(_ request: FetchRequest, in session: URLSession) async throws(FetchError) -> FetchResult {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if let etag = request.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = request.lastModified {
            urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        urlRequest.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    states.withLock { $0[id] = TaskState(continuation: continuation) }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw Self.map(error, url: request.url)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let allowed = states.withLock { states -> Bool in
            guard var state = states[task.taskIdentifier] else { return false }
            state.redirects += 1
            if response.statusCode != 301 && response.statusCode != 308 { state.allPermanent = false }
            if state.redirects > maxRedirects { state.tooManyRedirects = true }
            states[task.taskIdentifier] = state
            return !state.tooManyRedirects
        }
        completionHandler(allowed ? request : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = states.withLock { states -> Bool in
            guard var state = states[dataTask.taskIdentifier], !state.tooLarge else { return false }
            if state.data.count + data.count > maxBytes {
                state.tooLarge = true
                state.data = Data()
            } else {
                state.data.append(data)
            }
            states[dataTask.taskIdentifier] = state
            return state.tooLarge
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = states.withLock({ $0.removeValue(forKey: task.taskIdentifier) }),
            let continuation = state.continuation
        else { return }
        let response = task.response as? HTTPURLResponse
        let requested = task.originalRequest?.url
        if state.tooLarge { return continuation.resume(throwing: FetchError.tooLarge(limit: maxBytes)) }
        if state.tooManyRedirects { return continuation.resume(throwing: FetchError.tooManyRedirects) }
        if let error { return continuation.resume(throwing: Self.map(error, url: requested)) }
        guard let response else { return continuation.resume(throwing: FetchError.other("no HTTP response")) }
        switch response.statusCode {
        case 304:
            continuation.resume(returning: .notModified)
        case 200..<300:
            let finalURL = response.url ?? requested ?? URL(fileURLWithPath: "/")
            let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
            continuation.resume(
                returning: .fetched(
                    FetchedDocument(
                        data: state.data, etag: response.value(forHTTPHeaderField: "ETag"),
                        lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
                        charset: Self.charset(contentType), finalURL: finalURL,
                        movedPermanentlyTo: state.redirects > 0 && state.allPermanent ? finalURL : nil)))
        case 300..<400:
            continuation.resume(throwing: FetchError.tooManyRedirects)
        default:
            continuation.resume(throwing: FetchError.httpStatus(response.statusCode))
        }
    }

    /// `text/xml; charset=EUC-KR` → `EUC-KR`.
    static func charset(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }

    static func map(_ error: any Error, url: URL?) -> FetchError {
        if let error = error as? FetchError { return error }
        let host = url?.host ?? "?"
        guard let urlError = error as? URLError else { return .other("\(error)") }
        switch urlError.code {
        case .cannotFindHost, .dnsLookupFailed: return .hostNotFound(host)
        case .cannotConnectToHost: return .connectionRefused(host)
        case .timedOut: return .timedOut(host)
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .tooManyRedirects
        case .cancelled: return .other("cancelled")
        default: return .other(urlError.localizedDescription)
        }
    }
}
