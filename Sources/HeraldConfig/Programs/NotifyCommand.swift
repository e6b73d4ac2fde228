import Foundation

/// `set notify-command CMD`: run after a reload (the reader's or `herald reload`) that
/// brought new articles.
///
/// The command line is the user's own, run by `/bin/sh -c` so it may quote and redirect;
/// `%n` becomes the number of new articles and `%f` the number of feeds they came from
/// (`%%` a percent sign). Only those numbers ever enter it: no feed text reaches a shell.
/// The same numbers are in the environment as `HERALD_NEW_ARTICLES` and `HERALD_NEW_FEEDS`.
/// The command runs in a process group of its own with no signals blocked; in the reader its
/// standard input, output and error are `/dev/null`, so nothing it prints reaches the screen.
/// It is waited for on a thread of its own, never on the main actor.
public enum NotifyCommand {
    /// The command line with `%n`, `%f` and `%%` replaced.
    public static func expand(_ command: String, newArticles: Int, feeds: Int) -> String {
        var result = ""
        var percent = false
        for character in command {
            if percent {
                switch character {
                case "n": result += String(newArticles)
                case "f": result += String(feeds)
                case "%": result += "%"
                default: result += "%" + String(character)
                }
                percent = false
            } else if character == "%" {
                percent = true
            } else {
                result.append(character)
            }
        }
        return percent ? result + "%" : result
    }

    /// Runs the command and waits for it (off every actor); nil when it exited 0, else what
    /// went wrong. `quiet`: its standard output and error go to `/dev/null` (the reader);
    /// else they are the caller's (the command line).
    public static func run(_ command: String, newArticles: Int, feeds: Int, quiet: Bool) async -> String? {
        let line = expand(command, newArticles: newArticles, feeds: feeds)
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_NEW_ARTICLES"] = String(newArticles)
        environment["HERALD_NEW_FEEDS"] = String(feeds)
        return await wait(["/bin/sh", "-c", line], environment: environment, quiet: quiet, name: "notify-command")
    }

    /// Runs `argv` (its signals at their defaults, in a process group of its own, standard
    /// input from `/dev/null`) and waits for it off every actor; nil when it exited 0, else
    /// what went wrong, naming it `name`. `bookmark-cmd` runs this way too.
    public static func wait(_ argv: [String], environment: [String: String], quiet: Bool, name: String) async
        -> String?
    {
        let pid: pid_t
        switch spawn(argv, environment: environment, quiet: quiet) {
        case .success(let spawned): pid = spawned
        case .failure(let error): return "\(name) could not start: \(error.description)"
        }
        let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            // waitpid blocks: a thread of its own, so no actor and no pool thread waits.
            let waiter = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                done.resume(returning: status)
            }
            waiter.start()
        }
        if status & 0x7F != 0 { return "\(name) was killed by signal \(status & 0x7F)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "\(name) exited with status \(code)"
    }

    struct SpawnError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    private static func spawn(_ argv: [String], environment: [String: String], quiet: Bool) -> Result<
        pid_t, SpawnError
    > {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (the terminal's Ctrl-C is not its), no signal blocked, and
        // the usual ones at their defaults (a reader or a test may block or ignore some).
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigemptyset(&all)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&all, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        arguments.append(nil)
        var variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") }
        variables.append(nil)
        defer { for pointer in arguments + variables { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, argv[0], &actions, &attributes, arguments, variables)
        return code == 0 ? .success(pid) : .failure(SpawnError(code: code))
    }
}
