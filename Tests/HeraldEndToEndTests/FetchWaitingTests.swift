import Foundation
import HeraldTestSupport
import Testing

/// Waiting costs nothing: the real binary, a server that accepts and never answers.
@Suite("Waiting on the network")
struct FetchWaitingTests {
    @Test("waiting on a silent server costs almost no CPU")
    func silentServerCostsNoCPU() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let binary = try HeraldUnderTest.binary()
        let wall = 3.0
        // The fetch would give up after 15 s; the test stops it after 3, while it waits.
        let result = try Spawn.run(
            [binary.path, "parse", server.url("/silent").absoluteString],
            environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()], timeout: wall)
        #expect(result.timedOut, "parse ended while the server was silent: \(result.errors)")
        // Start-up is a few hundredths of a second; a spinning wait costs a whole core or two.
        #expect(result.cpuSeconds < 0.1 * wall, "\(result.cpuSeconds) CPU-s in \(wall) s of waiting")
    }
}

@Suite("Fetching through a proxy")
struct ProxyTests {
    @Test("http_proxy is honoured, and no_proxy skips it")
    func proxy() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let binary = try HeraldUnderTest.binary()
        let proxy = "http://127.0.0.1:\(server.port)"
        var environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "http_proxy": proxy]
        // A host that does not exist: only the proxy can answer for it.
        let viaProxy = try Spawn.run(
            [binary.path, "parse", "http://feeds.invalid/feed"], environment: environment, timeout: 20)
        #expect(viaProxy.exitStatus == 0, "\(viaProxy.errors)")
        #expect(viaProxy.output.contains("Fixture via proxy"))
        environment["no_proxy"] = "feeds.invalid"
        let direct = try Spawn.run(
            [binary.path, "parse", "http://feeds.invalid/feed"], environment: environment, timeout: 20)
        #expect(direct.exitStatus != 0)
        #expect(!direct.output.contains("Fixture via proxy"))
    }
}
