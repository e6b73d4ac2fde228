import Foundation

/// The fetch tests' fixture server (`Tests/HeraldFetchTests/Server`), on a free port.
final class FixtureHTTPServer {
    let process = Process()
    let port: Int

    init() throws {
        let script = HeraldUnderTest.repository.appendingPathComponent(
            "Tests/HeraldFetchTests/Server/fixture_server.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            throw EndToEndError("the fixture server printed no port")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// SIGKILL: test threads block SIGTERM, and the child inherits that mask.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
