import Foundation
import Synchronization
import Testing

/// Something went wrong driving tmux or waiting for the screen; the description carries the
/// screen as it was, so a failing test shows what the terminal looked like.
struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A private tmux server with one detached session of a fixed size, running a bare bash.
///
/// Each session gets its own server socket (`tmux -L herald-e2e-<pid>-<n>`) and ignores the
/// user's tmux configuration, so tests never touch a tmux the developer is running. Call
/// `kill()` when done (use `defer`); it is safe to call more than once.
final class TmuxSession {
    /// The size the session is created with.
    static let width = 100
    static let height = 30

    /// How long `waitUntil` waits by default, and how often it looks.
    static let defaultTimeout: Duration = .seconds(10)
    static let pollInterval: Duration = .milliseconds(50)

    let socket: String
    let target = "e2e"
    private var killed = false

    /// Starts the server and the session: `bash --norc --noprofile` with TERM=xterm-256color,
    /// a UTF-8 locale and the prompt `e2e$ `.
    init() throws {
        socket = "herald-e2e-\(getpid())-\(sessionCounter.add(1, ordering: .relaxed).newValue)"
        let shell =
            "env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 PS1='e2e$ ' bash --norc --noprofile"
        try run([
            "new-session", "-d", "-s", target,
            "-x", String(Self.width), "-y", String(Self.height), shell,
        ])
        // Keep the pane around if the shell dies, so a test sees the screen instead of
        // "no server running".
        try run(["set-option", "-t", target, "remain-on-exit", "on"])
        serverPID = Int32(try display("#{pid}"))
        socketPath = try display("#{socket_path}")
    }

    deinit { kill() }

    /// The tmux server's pid, to make sure it is gone after `kill()`.
    private var serverPID: Int32?
    /// The server's socket file, removed after `kill()` (tmux leaves it behind).
    private var socketPath: String?

    /// Kills the private server (and with it the shell and anything it runs). If the server
    /// is still there a second later, kills it, the pane's shell and its children outright.
    func kill() {
        guard !killed else { return }
        let panes = (try? run(["list-panes", "-a", "-F", "#{pane_pid}"]))?
            .split(separator: "\n").compactMap { Int32($0) } ?? []
        _ = try? run(["kill-server"])
        killed = true
        defer { if let socketPath, !socketPath.isEmpty { unlink(socketPath) } }
        guard let server = serverPID else { return }
        let deadline = Date().addingTimeInterval(1)
        while Foundation.kill(server, 0) == 0, !Self.isZombie(server), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)  // a short poll in test teardown, not in herald
        }
        guard Foundation.kill(server, 0) == 0, !Self.isZombie(server) else { return }
        for pane in panes {
            for child in HeraldUnderTest.childPIDs(of: pane) { _ = Foundation.kill(child, SIGKILL) }
            _ = Foundation.kill(pane, SIGKILL)
        }
        _ = Foundation.kill(server, SIGKILL)
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    // MARK: Driving

    /// Sends tmux key names (`j`, `Enter`, `C-c`, …), each one a separate key.
    func sendKeys(_ keys: String...) throws {
        try run(["send-keys", "-t", target] + keys)
    }

    /// Types `text` literally (no key-name lookup), also when it starts with `-` (after
    /// `--`), and in pieces of 1,000 characters (tmux refuses a longer command).
    func type(_ text: String) throws {
        var rest = Substring(text)
        repeat {
            try run(["send-keys", "-t", target, "-l", "--", String(rest.prefix(1000))])
            rest = rest.dropFirst(1000)
        } while !rest.isEmpty
    }

    /// Types a shell command line and presses Enter.
    func runCommand(_ commandLine: String) throws {
        try type(commandLine)
        try sendKeys("Enter")
    }

    /// The visible screen, one string per row (tmux trims trailing blanks).
    func capture() throws -> [String] {
        let text = try run(["capture-pane", "-p", "-t", target])
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { rows.removeLast() }
        return rows
    }

    /// A tmux format evaluated for the pane, e.g. `#{alternate_on}`.
    func display(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", target, format])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var alternateScreenOn: Bool { get throws { try display("#{alternate_on}") == "1" } }
    var cursorVisible: Bool { get throws { try display("#{cursor_flag}") == "1" } }

    /// The pid of the pane's shell.
    func panePID() throws -> Int32 {
        let text = try display("#{pane_pid}")
        guard let pid = Int32(text) else { throw EndToEndError("pane_pid is '\(text)'") }
        return pid
    }

    /// Resizes the window (and so the pane and its tty; the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", target, "-x", String(width), "-y", String(height)])
    }

    // MARK: Waiting

    /// Polls the screen every 50 ms until `condition` holds, and returns that screen.
    /// Throws, with the last screen in the message, if it does not hold within `timeout`.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: Duration = TmuxSession.defaultTimeout,
        _ condition: ([String]) throws -> Bool
    ) async throws -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var screen = try capture()
        while true {
            if try condition(screen) { return screen }
            if clock.now >= deadline { break }
            try await Task.sleep(for: Self.pollInterval)
            screen = try capture()
        }
        throw EndToEndError(
            "timed out after \(timeout) waiting until \(what); the screen was:\n"
                + Self.framed(screen))
    }

    /// Waits until the screen contains `text` somewhere.
    @discardableResult
    func waitUntil(contains text: String, timeout: Duration = TmuxSession.defaultTimeout)
        async throws -> [String]
    {
        try await waitUntil("the screen shows \"\(text)\"", timeout: timeout) { screen in
            screen.contains { $0.contains(text) }
        }
    }

    /// Waits for a line `EXIT=<status>` printed by `…; echo "EXIT=$?"` and returns the status.
    func waitForExitStatus(timeout: Duration = TmuxSession.defaultTimeout) async throws -> Int {
        let screen = try await waitUntil("the shell prints EXIT=<status>", timeout: timeout) {
            Self.exitStatus(in: $0) != nil
        }
        return Self.exitStatus(in: screen)!
    }

    /// The status from the last `EXIT=<digits>` row (the typed command line, which reads
    /// `EXIT=$?`, does not count).
    static func exitStatus(in screen: [String]) -> Int? {
        for row in screen.reversed() {
            let trimmed = row.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("EXIT=") else { continue }
            let digits = trimmed.dropFirst("EXIT=".count)
            if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let status = Int(digits) {
                return status
            }
        }
        return nil
    }

    /// The screen with row numbers (1-based), for failure messages.
    static func framed(_ screen: [String]) -> String {
        screen.enumerated().map { index, row in
            let number = String(index + 1)
            return String(repeating: " ", count: max(0, 2 - number.count)) + number + "|" + row
        }.joined(separator: "\n")
    }

    // MARK: Processes

    /// Runs `tmux -u -L <socket> -f /dev/null <arguments>` and returns its standard output.
    /// A tmux client that hangs is killed after 10 s.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        try Self.runTool(
            "tmux", ["-u", "-L", socket, "-f", "/dev/null"] + arguments,
            environment: Self.tmuxEnvironment)
    }

    /// The environment for tmux itself: UTF-8 (so `capture-pane` keeps Hangul), and no
    /// `TMUX` variable from a tmux the tests may be running inside.
    private static let tmuxEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TMUX_PANE"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"
        return environment
    }()

    /// Runs a tool found on PATH, waits for it (killing it after `timeout`) and returns its
    /// standard output; throws with its standard error if it fails.
    static func runTool(
        _ tool: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: TimeInterval = 10
    ) throws -> String {
        let result = try Spawn.run(
            [tool] + arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            timeout: timeout)
        guard result.exitStatus == 0 else {
            let how =
                result.timedOut
                ? "timed out after \(Int(timeout)) s"
                : result.exitStatus.map { "status \($0)" } ?? "killed by a signal"
            throw EndToEndError(
                "\(tool) \(arguments.joined(separator: " ")) failed (\(how)): \(result.errors)")
        }
        return result.output
    }
}

/// Numbers the sessions of this test process, so every one gets a fresh server socket.
private let sessionCounter = Atomic<Int>(0)

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

