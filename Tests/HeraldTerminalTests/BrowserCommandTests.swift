import Foundation
import Testing

@testable import HeraldTerminal

@Suite("Opening links with $BROWSER")
struct BrowserCommandTests {
    @Test("the URL is one argument, appended or put in place of %s")
    func argv() {
        #expect(BrowserCommand.argv(browser: "firefox --new-tab", url: "https://e.org/a")
            == ["firefox", "--new-tab", "https://e.org/a"])
        #expect(BrowserCommand.argv(browser: "w3m %s -o x=1", url: "http://e.org/")
            == ["w3m", "http://e.org/", "-o", "x=1"])
        #expect(BrowserCommand.argv(browser: "   ", url: "https://e.org/") == nil)
    }

    @Test("only http and https links are opened", arguments: [
        "file:///etc/passwd", "javascript:alert(1)", "-rf", "--help", "https://e.org/a b", "ftp://e.org/",
        "https://e.org/\u{1b}]0;x\u{7}",
    ])
    func refused(_ url: String) {
        #expect(BrowserCommand.argv(browser: "firefox", url: url) == nil)
    }

    @Test("the browser runs without a shell: the URL reaches it as one argument, untouched")
    func runsWithoutShell() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("argv.txt")
        let script = directory.appendingPathComponent("browser.sh")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(output.path)'\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let url = "https://e.org/a;touch${IFS}pwned$(id)`id`&x=1"
        // The script is run by sh rather than exec'd: a file written a moment ago can still be
        // open in a child another test is forking (ETXTBSY). The URL still never meets a shell
        // as code: it is the script's "$1".
        let argv = try #require(BrowserCommand.argv(browser: "/bin/sh \(script.path)", url: url))
        #expect(BrowserCommand.run(argv) == nil)
        #expect(try String(contentsOf: output, encoding: .utf8) == url + "\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
    }

    @Test("a browser that fails or cannot start is reported")
    func failures() {
        #expect(BrowserCommand.run(["/bin/false"]) == "/bin/false exited with status 1")
        #expect(BrowserCommand.run(["/nonexistent/browser"]) == "could not run /nonexistent/browser")
    }
}
