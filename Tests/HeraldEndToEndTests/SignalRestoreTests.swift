import Foundation
import Testing

/// The terminal after a signal, seen from the pty itself (no shell between: bash restores
/// the tty modes of a job killed by a signal, which would hide a reader that does not).
/// CI runs this suite on the release binary too (`HERALD_BINARY`): its crash restore once
/// failed there alone.
@Suite("The terminal after a crash or a stray signal")
struct SignalRestoreTests {
    /// Starts herald on a pty, sends the signal, and prints three lines:
    /// `raw=<bool>`: whether the tty is left without ICANON, ECHO or ICRNL;
    /// `seen=<modes>`: the DEC private modes (and `keypad`) herald turned on while it ran;
    /// `left=<modes>`: those still on after it died (`none`), the cursor's mode 25 counted
    /// as on when it was left hidden.
    static let harness = #"""
        import re
        binary, library, name = sys.argv[1], sys.argv[2], sys.argv[3]
        pid, fd = start(binary, library)
        before = drain(fd, 3.0)
        os.kill(pid, getattr(signal, "SIG" + name))
        after = drain(fd, 1.5)
        os.waitpid(pid, 0)
        attributes = termios.tcgetattr(fd)
        iflag, lflag = attributes[0], attributes[3]
        raw = not (lflag & termios.ICANON) or not (lflag & termios.ECHO) or not (iflag & termios.ICRNL)
        def modes(data):
            state, seen = {}, set()
            for match in re.finditer(rb"\x1b\[\?([0-9;]+)([hl])|\x1b([=>])", data):
                if match.group(3):
                    changes = [("keypad", match.group(3) == b"=")]
                else:
                    changes = [(int(n), match.group(2) == b"h") for n in match.group(1).split(b";") if n]
                for mode, on in changes:
                    state[mode] = on
                    if on: seen.add(mode)
            return state, seen
        state, seen = modes(before + after)
        left = [str(m) for m, on in state.items() if (on and m not in (7, 12, 25)) or (m == 25 and not on)]
        print(f"raw={raw}")
        print("seen=" + ",".join(sorted(str(m) for m in seen)))
        print("left=" + (",".join(sorted(left)) or "none"))
        """#

    static func run(_ signal: String) throws -> (raw: String, seen: Set<String>, left: String) {
        let result = try PtyScript.run(Self.harness, arguments: [signal])
        #expect(result.exitStatus == 0, "\(result.errors)")
        var fields: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return (
            fields["raw"] ?? "?", Set((fields["seen"] ?? "").split(separator: ",").map(String.init)),
            fields["left"] ?? "?"
        )
    }

    @Test(
        "a crash (every fatal signal: a Swift trap is SIGILL or SIGTRAP) leaves the tty cooked and every mode herald turned on off",
        arguments: ["SEGV", "BUS", "ILL", "TRAP", "ABRT", "FPE", "SYS"])
    func crashRestores(_ signal: String) throws {
        let (raw, seen, left) = try Self.run(signal)
        // The modes whose restore is checked were on: the alternate screen, application
        // cursor keys and keypad, mouse reporting (SGR), the hidden cursor.
        #expect(seen.isSuperset(of: ["1049", "1", "keypad", "1000", "1006"]), "\(signal): seen \(seen)")
        #expect(raw == "False", "\(signal): the tty was left raw")
        #expect(left == "none", "\(signal): left on: \(left)")
    }

    @Test(
        "a signal that ends the reader (SIGTERM, SIGHUP, SIGINT, SIGQUIT, a stray SIGUSR1, SIGUSR2 or SIGALRM) restores the terminal too",
        arguments: ["TERM", "HUP", "INT", "QUIT", "USR1", "USR2", "ALRM"])
    func stopRestores(_ signal: String) throws {
        let (raw, seen, left) = try Self.run(signal)
        #expect(seen.isSuperset(of: ["1049", "1000"]), "\(signal): seen \(seen)")
        #expect(raw == "False", "\(signal): the tty was left raw")
        #expect(left == "none", "\(signal): left on: \(left)")
    }
}
