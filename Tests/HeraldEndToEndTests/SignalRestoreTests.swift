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
        binary, library, name = sys.argv[1], sys.argv[2], sys.argv[3]
        pid, fd = start(binary, library)
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
        let result = try PtyScript.run(Self.harness, arguments: [signal])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(
            result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "raw=False alternate=False",
            "\(signal): \(result.output)")
    }
}
