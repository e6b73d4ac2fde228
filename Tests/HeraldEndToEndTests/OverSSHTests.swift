import Foundation
import Testing

/// What a reader over ssh relies on: the window title names what is open, and `y` puts a
/// link on the clipboard with OSC 52, wrapped for tmux when inside it.
@Suite("Title and clipboard", .serialized)
struct OverSSHTests {
    @Test("the pane title follows what is open, sanitised, and the shell's comes back at the end")
    func title() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(HeraldUnderTest.commandLine(binary: binary))
        try await session.waitUntil("the feed list") { $0.first?.contains("Herald · Feeds") == true }
        #expect(try session.display("#{pane_title}") == "Herald")
        try session.sendKeys("Enter")
        try await session.waitUntil("the article list") { $0.first?.contains("Field Journal") == true }
        #expect(try session.display("#{pane_title}") == "Herald · Field Journal")
        try session.sendKeys("q")
        try session.sendKeys("q")
        _ = try await session.waitForExitStatus()
        #expect(try session.display("#{pane_title}") != "Herald · Field Journal")
    }

    /// Runs herald on a pty with `TMUX` set, opens the first feed, presses `y`, and prints
    /// the bytes herald wrote after it, escaped.
    static let harness = #"""
        pid, fd = start(sys.argv[1], sys.argv[2], TERM="tmux-256color", TMUX="/tmp/tmux-test/default,1,0")
        drain(fd, 3.0)
        os.write(fd, b"\r")
        drain(fd, 1.0)
        os.write(fd, b"y")
        after = drain(fd, 1.0)
        os.write(fd, b"QQ")
        drain(fd, 1.0)
        print(after.hex())
        """#

    @Test("y inside tmux writes OSC 52 plain and wrapped for tmux's passthrough (ESCs doubled)")
    func clipboardInsideTmux() throws {
        let result = try PtyScript.run(Self.harness)
        #expect(result.exitStatus == 0, "\(result.errors)")
        let hex = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        let written = String(decoding: bytes, as: UTF8.self)
        let plain = try #require(written.range(of: "\u{1b}]52;c;"), "no OSC 52 in what herald wrote")
        let encoded = written[plain.upperBound...].prefix { $0 != "\u{07}" }
        let copied = try #require(Data(base64Encoded: String(encoded))).map { $0 }
        #expect(String(decoding: copied, as: UTF8.self).hasPrefix("http"), "copied \(copied)")
        #expect(
            written.contains("\u{1b}Ptmux;\u{1b}\u{1b}]52;c;\(encoded)\u{07}\u{1b}\\"),
            "the tmux-wrapped copy")
    }
}
