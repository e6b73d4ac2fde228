public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Python fixture server in `Server/` (routes listed there), on a free loopback port, for
/// one test. Shared by the fetch tests and the end-to-end tests.
public final class FixtureServer {
    let process: Process
    public let port: Int

    public init() throws {
        (process, port) = try ScriptServer.start("fixture_server.py", what: "the fixture server")
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The most requests to `/together/N` that waited at once: N when they were all in flight
    /// together, fewer when the client held some back.
    public func togetherPeak() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url("/together-peak"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    /// SIGKILL: test threads block SIGTERM, and a child inherits that mask.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
