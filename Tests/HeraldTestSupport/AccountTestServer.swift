public import Foundation
import Synchronization

/// `Server/account_server.py` on a free loopback port: feed files from a folder for a real
/// FreshRSS to fetch, and account servers that misbehave on purpose (routes listed there).
public final class AccountTestServer: Sendable {
    public let port: Int
    public let folder: URL
    public let pid: Int32

    /// Serves the files of `folder` under `/feeds/`.
    public init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (process, port) = try ScriptServer.start(
            "account_server.py", [folder.path], what: "the account test server")
        (self.port, self.folder, self.pid) = (port, folder, process.processIdentifier)
        ExitCleanup.killAtExit(pid: pid)
    }

    /// Serves a temporary folder of its own (for the fault routes alone).
    public convenience init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-accounts-\(UUID().uuidString)")
        ExitCleanup.removeAtExit(folder: folder)
        try self.init(folder: folder)
    }

    /// The address of `path` under the served folder.
    public func feedURL(_ path: String) -> String { "http://127.0.0.1:\(port)/feeds/\(path)" }

    /// The base address of an account server misbehaving as `kind`, apart from other runs.
    public func faultBase(_ kind: String, run: String = UUID().uuidString) -> URL {
        URL(string: "http://127.0.0.1:\(port)/fault/\(kind)/\(run)")!
    }

    /// How many requests each path below `base` (a `faultBase`) received.
    public func counts(_ base: URL) throws -> [String: Int] {
        let counts = URL(string: base.absoluteString.replacingOccurrences(of: "/fault/", with: "/counts/"))!
        let data = try Data(contentsOf: counts)
        return try JSONDecoder().decode([String: Int].self, from: data)
    }

    /// SIGKILL: test threads block SIGTERM, and a child inherits that mask.
    public func stop() {
        kill(pid, SIGKILL)
    }
}

/// A test server that would not start or answer: what happened.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the test process leaves behind is ended when it exits: servers (by process id, or
/// by the process group a script's background server runs in) and temporary folders.
enum ExitCleanup {
    private static let state = Mutex<(pids: [Int32], groups: [Int32], folders: [String], installed: Bool)>(
        ([], [], [], false))

    static func killAtExit(pid: Int32) { register { $0.pids.append(pid) } }
    static func killAtExit(group: Int32) { register { $0.groups.append(group) } }
    static func removeAtExit(folder: URL) { register { $0.folders.append(folder.path) } }

    private static func register(
        _ change: (inout (pids: [Int32], groups: [Int32], folders: [String], installed: Bool)) -> Void
    ) {
        let install = state.withLock { state in
            change(&state)
            defer { state.installed = true }
            return !state.installed
        }
        if install { atexit { ExitCleanup.run() } }
    }

    private static func run() {
        let (pids, groups, folders) = state.withLock { state in
            defer { (state.pids, state.groups, state.folders) = ([], [], []) }
            return (state.pids, state.groups, state.folders)
        }
        for pid in pids { kill(pid, SIGKILL) }
        // Never the test process's own group (a script run by Process leads a group of its own).
        for group in groups where group > 1 && group != getpgrp() { kill(-group, SIGKILL) }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }
}

/// Running a program to its end without blocking a thread.
enum ScriptRun {
    /// Runs `arguments` (the program first), with no input and its output appended to `log`;
    /// its exit status. `environment` adds to the test process's.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], log: URL) async throws
        -> Int32
    {
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        try output.seekToEnd()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    }

    /// The last lines of a log, for an error's words.
    static func tail(_ log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(8).joined(separator: "\n")
    }
}
