import Foundation

/// Runs a program with `posix_spawn` (as `HeraldEndToEndTests/Spawn.swift` does, for the same
/// reasons): Foundation's `Process` learns that a child ended when a socket it leaks into the
/// child closes, and a daemon the child starts (start-ttrss.sh's web server) keeps it open
/// forever; and a child inherits the test thread's signal mask (SIGTERM blocked). Here every
/// signal is unblocked and at its default, stdin is /dev/null, stdout and stderr go to one
/// temporary file, every other descriptor is closed.
enum ChildProcess {
    struct Output {
        let status: Int32
        let output: String

        func check(_ what: String) throws {
            if status != 0 { throw TestServerError("\(what) failed (\(status)): \(output.suffix(2000))") }
        }
    }

    /// Runs `argv` to its end (killed after `timeout` seconds).
    static func run(_ argv: [String], environment: [String: String] = [:], timeout: TimeInterval = 600) throws
        -> Output
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-run-\(UUID().uuidString)"
        ).path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestServerError("cannot create \(path)") }
        defer {
            close(fd)
            unlink(path)
        }
        let pid = try spawn(argv, environment: environment, output: fd)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var killed = false
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped == -1, errno != EINTR { throw TestServerError("waitpid failed: errno \(errno)") }
            if Date() >= deadline, !killed {
                killed = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)  // polling waitpid(WNOHANG), bounded by the deadline
        }
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return Output(status: status & 0x7f != 0 ? -1 : (status >> 8) & 0xff, output: output)
    }

    /// Starts `argv` and leaves it running, its output thrown away (a watchdog).
    static func start(_ argv: [String]) throws {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(fd) }
        _ = try spawn(argv, environment: [:], output: fd)
    }

    private static func spawn(_ argv: [String], environment: [String: String], output: Int32) throws -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        let openFDs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in openFDs.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw TestServerError("cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}
