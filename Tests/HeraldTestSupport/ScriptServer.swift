import Foundation

/// Starts one of the Python scripts of `Server/`, which print the port they listen on as
/// their first line and serve until killed: the fixture server, the account and feed-folder
/// servers, the proxy.
enum ScriptServer {
    /// The script `name` of `Server/` run with `arguments`, and its port. `what` names it in
    /// the error when it prints no port (it is killed then).
    static func start(_ name: String, _ arguments: [String] = [], what: String) throws -> (process: Process, port: Int) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Server/\(name)")
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestServerError("\(what) gave no port")
        }
        return (process, port)
    }

    /// A loopback port nothing listens on now (the kernel's choice for port 0), for a server
    /// that must be told its port (PHP's, FreshRSS's and TT-RSS's).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("no socket for a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestServerError("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
