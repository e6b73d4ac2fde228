import Foundation
import Testing

/// The terminal after a signal, seen from the pty itself (no shell between: bash restores
/// the tty modes of a job killed by a signal, which would hide a reader that does not).
@Suite("The terminal after a crash or a stray signal")
struct SignalRestoreTests {
    /// Starts herald on a pty, sends the signal, and prints `raw=<bool> alternate=<bool>`:
    /// whether the tty is left without ICANON or ECHO, and whether the alternate screen was
    /// left on (no `ESC [?1049l` after the signal).
    static let harness = #"""
        import os, pty, sys, time, signal, termios, select
        binary, name, library = sys.argv[1], sys.argv[2], sys.argv[3]
        def drain(fd, seconds):
            end, out = time.time() + seconds, b""
            while time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if ready:
                    try: out += os.read(fd, 65536)
                    except OSError: break
            return out
        pid, fd = pty.fork()
        if pid == 0:
            os.environ.update(HERALD_DB=library, TERM="xterm-256color")
            os.execv(binary, [binary])
        drain(fd, 3.0)
        os.kill(pid, getattr(signal, "SIG" + name))
        after = drain(fd, 1.5)
        os.waitpid(pid, 0)
        lflag = termios.tcgetattr(fd)[3]
        raw = not (lflag & termios.ICANON) or not (lflag & termios.ECHO)
        left_on = after.rfind(b"\x1b[?1049l") < 0
        print(f"raw={raw} alternate={left_on}")
        """#

    @Test(
        "a crash (SIGSEGV, SIGABRT, SIGILL, SIGBUS) or a stray SIGUSR1, SIGUSR2 or SIGALRM leaves the tty cooked and the alternate screen off",
        arguments: ["SEGV", "ABRT", "ILL", "BUS", "USR1", "USR2", "ALRM"])
    func restored(_ signal: String) throws {
        let binary = try HeraldUnderTest.binary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DEMO_DIR"] = HeraldUnderTest.demoFeeds.path
        let result = try Spawn.run(
            [
                "python3", "-c", Self.harness, binary.path, signal,
                directory.appendingPathComponent("h.db").path,
            ],
            environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(
            result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "raw=False alternate=False",
            "\(signal): \(result.output)")
    }
}
