import Foundation

/// The real servers' start scripts install Debian's packages on a fresh machine (PHP for
/// FreshRSS; tt-rss, PostgreSQL and PHP's PostgreSQL driver for TT-RSS), and dpkg takes one
/// installer at a time: a second `apt-get` fails at once on its lock. Suites start both
/// servers at the same moment, so the starts run one at a time in a process, and each
/// `apt-get` they run waits up to five minutes for a lock another process holds.
actor PackageInstalls {
    static let shared = PackageInstalls()

    /// The start before this one, which this one waits for.
    private var last: Task<Void, Never>?

    /// Runs `start` once every start asked for before it has ended.
    func oneAtATime<T: Sendable>(_ start: @escaping @Sendable () async throws -> T) async throws -> T {
        let before = last
        let task = Task {
            await before?.value
            return try await start()
        }
        last = Task { _ = try? await task.value }
        return try await task.value
    }

    /// The environment that makes `apt-get` wait for dpkg's lock (`DPkg::Lock::Timeout`, in a
    /// file `APT_CONFIG` names: it stands for `/etc/apt/apt.conf`, which Debian leaves empty,
    /// and `apt.conf.d` is read all the same), plus `DEBIAN_FRONTEND=noninteractive`.
    static let environment: [String: String] = {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("herald-apt-\(getpid()).conf")
        guard FileManager.default.createFile(atPath: file.path, contents: Data("DPkg::Lock::Timeout \"300\";\n".utf8))
        else { return ["DEBIAN_FRONTEND": "noninteractive"] }
        ExitCleanup.removeAtExit(folder: file)
        return ["APT_CONFIG": file.path, "DEBIAN_FRONTEND": "noninteractive"]
    }()
}
