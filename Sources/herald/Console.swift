import Foundation
import HeraldCore

/// Where the command line's text goes: every line passes `TextSanitizer` on its way, so feed
/// data (titles, URLs from redirects and discovery, parse errors quoting a feed) can print
/// no control sequence, whatever path it took. JSON and OPML output, which escape what they
/// carry, are printed as they are.
enum Console {
    /// A line on standard output.
    static func say(_ text: String) {
        print(TextSanitizer.multiLine(text))
    }

    /// A line on standard error (the progress bar, which writes its own sequences, does not
    /// come here).
    static func complain(_ text: String) {
        FileHandle.standardError.write(Data((TextSanitizer.multiLine(text) + "\n").utf8))
    }
}
