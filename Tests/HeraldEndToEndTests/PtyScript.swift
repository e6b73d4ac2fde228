import Foundation

/// Runs herald on a pty of its own (no shell, no tmux between) from a small Python script,
/// for what only the pty shows: the tty modes left behind, the bytes herald writes.
enum PtyScript {
    /// Defines `drain(fd, seconds)` (what herald writes in that time) and
    /// `start(binary, library, **environment)` (herald forked on a pty: its pid and fd).
    static let prelude = #"""
        import os, pty, sys, time, signal, termios, select
        def drain(fd, seconds):
            end, out = time.time() + seconds, b""
            while time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if ready:
                    try: out += os.read(fd, 65536)
                    except OSError: break
            return out
        def start(binary, library, **environment):
            pid, fd = pty.fork()
            if pid == 0:
                os.environ.update({"HERALD_DB": library, "TERM": "xterm-256color", **environment})
                os.execv(binary, [binary])
            return pid, fd

        """#

    /// Runs `script` (after the prelude) with herald's path and a fresh library's as
    /// `sys.argv[1]` and `sys.argv[2]`, and any `arguments` after them.
    static func run(_ script: String, arguments: [String] = []) throws -> Spawn.Result {
        let binary = try HeraldUnderTest.binary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-pty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DEMO_DIR"] = HeraldUnderTest.demoFeeds.path
        return try Spawn.run(
            ["python3", "-c", prelude + script, binary.path, directory.appendingPathComponent("h.db").path]
                + arguments,
            environment: environment, timeout: 30)
    }
}
