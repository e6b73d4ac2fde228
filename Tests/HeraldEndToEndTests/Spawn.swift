import Foundation

/// Runs a program with `posix_spawnp`, not Foundation's `Process`, for two reasons:
///
/// - `Process` on Linux learns that a child ended when a socket it leaks into the child is
///   closed. The tmux client forks the tmux server, which keeps that socket open, so
///   `waitUntilExit()` on `tmux new-session` never returns.
/// - The child inherits the spawning thread's signal mask, and tests run on Dispatch worker
///   threads that block SIGTERM, SIGHUP, SIGINT and more. A tmux server started with that
///   mask passes it on to the shell and to herald, which then ignore those signals.
///
/// So: all signals unblocked and at their defaults, stdin from /dev/null, stdout and stderr
/// into temporary files (a daemon that inherits them cannot make us wait), every other
/// descriptor closed, and the child reaped here with `waitpid`.
enum Spawn {
    struct Result {
        /// The exit status, or nil if the child was killed by a signal.
        var exitStatus: Int32?
        var output: String
        var errors: String
        var timedOut: Bool
        /// User and system CPU time the child used, in seconds.
        var cpuSeconds: Double
    }

    static func run(_ argv: [String], environment: [String: String], timeout: TimeInterval)
        throws -> Result
    {
        let stem = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-e2e-\(getpid())-\(UUID().uuidString)").path
        let outputPath = stem + ".out"
        let errorPath = stem + ".err"
        let outputFD = open(outputPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorFD = open(errorPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if outputFD >= 0 { close(outputFD) }
            if errorFD >= 0 { close(errorFD) }
            unlink(outputPath)
            unlink(errorPath)
        }
        guard outputFD >= 0, errorFD >= 0 else {
            throw EndToEndError("cannot create \(stem).out/.err: errno \(errno)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFD, 1)
        posix_spawn_file_actions_adddup2(&actions, errorFD, 2)
        // Close every other descriptor in the child (glibc ignores ones closed meanwhile).
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

        let cArguments = argv.map { strdup($0) } + [nil]
        // The sanitizers' options (their suppressions above all) reach every child, whatever
        // environment the test chose: a spawned herald built with TSan reads them too.
        var environment = environment
        for (key, value) in ProcessInfo.processInfo.environment
        where key.hasSuffix("SAN_OPTIONS") && environment[key] == nil {
            environment[key] = value
        }
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw EndToEndError(
                "cannot run \(argv[0]): \(String(cString: strerror(spawned))) (is it installed?)")
        }

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped == -1, errno != EINTR {
                throw EndToEndError("wait4(\(pid)) failed: errno \(errno)")
            }
            if Date() >= deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(2_000)  // polling waitpid(WNOHANG) in the test helper, bounded by the deadline
        }
        let signalled = status & 0x7f != 0
        return Result(
            exitStatus: signalled ? nil : (status >> 8) & 0xff,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "",
            timedOut: timedOut,
            cpuSeconds: Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime))
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
