public import Foundation

/// `Server/tcp_proxy.py`: a server's port forwarded on loopback, optionally slowed. `stop()`
/// is the server going down (connections refused); `start()` again, on the same port, its
/// coming back.
/// One test holds it, in one task: it is not Sendable.
public final class LoopbackProxy {
    private var process: Process?
    public private(set) var port: Int
    let target: Int
    private(set) var delay: Int

    /// Forwards `target`'s port, each piece of its answers held `delay` milliseconds.
    public init(target: Int, delay: Int = 0) throws {
        (self.target, self.delay, self.port) = (target, delay, 0)
        try start()
    }

    public func url(_ path: String = "") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Listens again (on the same port after the first start), each piece of the server's
    /// answers held `delay` milliseconds when given.
    public func start(delay: Int? = nil) throws {
        if let delay { self.delay = delay }
        (process, port) = try ScriptServer.start(
            "tcp_proxy.py", [String(port), String(target), String(self.delay)], what: "the proxy")
    }

    /// SIGKILL: the server is gone, its port refuses connections.
    public func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    deinit { stop() }
}
