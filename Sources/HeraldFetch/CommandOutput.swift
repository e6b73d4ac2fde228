public import Foundation

/// Runs a feed's command (newsboat's `exec:` and `filter:` feeds) and reads its standard
/// output as a download is read: at most `FetchLimits.maxBytes`, within
/// `FetchLimits.totalTimeout` seconds.
///
/// The command line is the user's own (their `urls` or command line), run by `/bin/sh -c`
/// in a process group of its own with no signal blocked; nothing a feed sent is ever part of
/// it: a filter gets the downloaded document on its standard input, an `exec:` command gets
/// `/dev/null`. Past the time or the size the whole process group is killed. Everything that
/// waits (the output, the input taken, the end) sleeps in `poll(2)` and `waitpid(2)` on a
/// thread of its own, never on an actor or a pool thread.
public enum CommandOutput {
    /// Standard error kept for the message of a failure (its first line is shown).
    static let stderrBytes = 4096

    /// What the command printed on its standard output; `kind` (`exec`, `filter`) names it
    /// in errors: `exec: command exited with status 2: <first line of its standard error>`.
    public static func run(
        _ command: String, kind: String, input: Data?, limits: FetchLimits
    ) async throws(FetchError) -> Data {
        let result = await withCheckedContinuation {
            (done: CheckedContinuation<Result<Data, FetchError>, Never>) in
            let thread = Thread {
                done.resume(returning: runBlocking(command, kind: kind, input: input, limits: limits))
            }
            thread.start()
        }
        return try result.get()
    }

    /// The whole run, start to end, on the calling thread.
    static func runBlocking(_ command: String, kind: String, input: Data?, limits: FetchLimits) -> Result<
        Data, FetchError
    > {
        // A filter that exits without reading all its input would raise SIGPIPE on the write:
        // blocked on this thread only (a thread of its own, which ends with the run), the
        // write fails with EPIPE instead.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var feeding: [Int32] = [-1, -1]
        guard makePipe(&output), makePipe(&errors), input == nil || makePipe(&feeding) else {
            for fd in output + errors + feeding where fd >= 0 { close(fd) }
            return .failure(.other("\(kind): cannot make a pipe: \(String(cString: strerror(errno)))"))
        }
        let spawned = spawn(
            command, stdin: input == nil ? nil : feeding[0], stdout: output[1], stderr: errors[1])
        close(output[1])
        close(errors[1])
        if input != nil { close(feeding[0]) }
        guard case .success(let pid) = spawned else {
            for fd in [output[0], errors[0], input == nil ? -1 : feeding[1]] where fd >= 0 { close(fd) }
            if case .failure(let failure) = spawned {
                return .failure(
                    .other("\(kind): /bin/sh could not start: \(String(cString: strerror(failure.code)))"))
            }
            return .failure(.other("\(kind): /bin/sh could not start"))
        }
        var reading = Reading(
            output: output[0], errors: errors[0], feeding: input == nil ? -1 : feeding[1],
            input: input ?? Data())
        let deadline = Date().addingTimeInterval(limits.totalTimeout)
        var outcome = reading.run(until: deadline, maxBytes: limits.maxBytes)
        reading.closeAll()
        var status: Int32 = 0
        if outcome == .finished, !exited(pid, by: deadline, status: &status) { outcome = .timedOut }
        if outcome != .finished {
            killpg(pid, SIGKILL)
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        switch outcome {
        case .timedOut:
            return .failure(
                .timedOut("\(kind): command ran over \(Int(limits.totalTimeout)) s and was stopped"))
        case .tooLarge:
            return .failure(
                .other("\(kind): command printed more than \(size(limits.maxBytes)) and was stopped"))
        case .finished: break
        }
        let said = firstLine(reading.stderr)
        if status & 0x7F != 0 {
            return .failure(.other("\(kind): command was killed by signal \(status & 0x7F)" + said))
        }
        let code = (status >> 8) & 0xFF
        guard code == 0 else { return .failure(.other("\(kind): command exited with status \(code)" + said)) }
        return .success(reading.stdout)
    }

    /// Whether the command ended by `deadline` (its status in `status`). A command that
    /// closed its output and goes on (`exec >&-; sleep 1000`) is looked at every 50 ms until
    /// then: a sleep in the kernel, and most commands have ended at the first look.
    static func exited(_ pid: pid_t, by deadline: Date, status: inout Int32) -> Bool {
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid || (ended == -1 && errno != EINTR) { return true }
            guard deadline.timeIntervalSinceNow > 0 else { return false }
            if ended == 0 { _ = poll(nil, 0, 50) }
        }
    }

    /// `16 MB`, or bytes when the limit is not whole megabytes.
    static func size(_ bytes: Int) -> String {
        bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MB" : "\(bytes) bytes"
    }

    /// `: ` and the first line the command wrote on its standard error, controls left out
    /// and cut at 200 characters; empty when it wrote none.
    static func firstLine(_ data: Data) -> String {
        let text = String(decoding: data.prefix(stderrBytes), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let plain = String(
            String.UnicodeScalarView(
                line.unicodeScalars.filter {
                    $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
                        && !(0x200E...0x200F).contains($0.value) && !(0x202A...0x202E).contains($0.value)
                        && !(0x2066...0x2069).contains($0.value)
                }))
        let trimmed = plain.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "" : ": " + String(trimmed.prefix(200))
    }

    /// `/bin/sh -c COMMAND` in a process group of its own, with the usual signals at their
    /// defaults and none blocked; standard input `/dev/null` when `stdin` is nil. The error
    /// is posix_spawn's errno.
    static func spawn(_ command: String, stdin: Int32?, stdout: Int32, stderr: Int32) -> Result<
        pid_t, SpawnFailure
    > {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ["/bin/sh", "-c", command]
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        arguments.append(nil)
        var variables: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map {
            strdup("\($0.key)=\($0.value)")
        }
        variables.append(nil)
        defer { for pointer in arguments + variables { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, variables)
        return code == 0 ? .success(pid) : .failure(SpawnFailure(code: code))
    }

    /// posix_spawn's errno.
    struct SpawnFailure: Error {
        var code: Int32
    }

    /// A pipe whose ends close on exec (Glibc's `pipe2` is not visible from Swift): the
    /// program gets its own ends through `dup2`, no other program gets any.
    static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// The pipes of one run: the input written as the command takes it, its output and
    /// errors read as they come, until both end, the output is too large or time is up.
    struct Reading {
        enum Outcome: Equatable { case finished, timedOut, tooLarge }

        var output: Int32
        var errors: Int32
        var feeding: Int32
        let input: Data
        var written = 0
        var stdout = Data()
        var stderr = Data()

        init(output: Int32, errors: Int32, feeding: Int32, input: Data) {
            (self.output, self.errors, self.feeding, self.input) = (output, errors, feeding, input)
            if feeding >= 0 { _ = fcntl(feeding, F_SETFL, fcntl(feeding, F_GETFL) | O_NONBLOCK) }
            if feeding >= 0 && input.isEmpty { closeFeeding() }
        }

        mutating func run(until deadline: Date, maxBytes: Int) -> Outcome {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while output >= 0 || errors >= 0 {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return .timedOut }
                var fds: [pollfd] = []
                if output >= 0 { fds.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
                if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
                if feeding >= 0 { fds.append(pollfd(fd: feeding, events: Int16(POLLOUT), revents: 0)) }
                let ready = poll(&fds, nfds_t(fds.count), Int32(min(left * 1000, 60_000).rounded(.up)))
                // poll fails only for want of memory: the command is stopped as if out of time.
                if ready < 0 && errno != EINTR { return .timedOut }
                guard ready > 0 else { continue }
                for entry in fds where entry.revents != 0 {
                    if entry.fd == feeding {
                        feed()
                        continue
                    }
                    let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    if count <= 0 {
                        close(entry.fd)
                        if entry.fd == output { output = -1 } else { errors = -1 }
                        continue
                    }
                    if entry.fd == output {
                        guard stdout.count + count <= maxBytes else { return .tooLarge }
                        stdout.append(contentsOf: buffer[0..<count])
                    } else if stderr.count < CommandOutput.stderrBytes {
                        stderr.append(
                            contentsOf: buffer[0..<min(count, CommandOutput.stderrBytes - stderr.count)])
                    }
                }
            }
            return .finished
        }

        /// Writes what the command's input can take now; closes it at the end (or when the
        /// command stopped reading: what it printed is its answer).
        private mutating func feed() {
            let count = input.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return write(feeding, base + written, bytes.count - written)
            }
            if count > 0 { written += count }
            if (count < 0 && errno != EAGAIN && errno != EINTR) || written >= input.count { closeFeeding() }
        }

        private mutating func closeFeeding() {
            close(feeding)
            feeding = -1
        }

        mutating func closeAll() {
            for fd in [output, errors, feeding] where fd >= 0 { close(fd) }
            (output, errors, feeding) = (-1, -1, -1)
        }
    }
}
