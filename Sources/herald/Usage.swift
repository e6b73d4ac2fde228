import HeraldUI

/// The text of `herald --help` (its key section comes from the action table).
enum Usage {
    static let version = "0.2.0"

    static let text = """
        herald — a keyboard-driven terminal reader for feeds

        Usage:
          herald [--db PATH] [--feeds DIR]                open the reader
          herald list [--feed URL] [--unread] [--json]    print articles, newest first
          herald search QUERY… [--limit N] [--json]       print search results, best first
          herald add URL [--title T] [--tag T]…           subscribe to a feed
          herald remove URL                               unsubscribe (drops its articles)
          herald reload [--jobs N] [--quiet]              fetch every feed
          herald parse FILE_OR_URL [--json]               print a feed as Herald reads it
          herald import FILE                              add the feeds of an OPML or newsboat urls file
          herald export                                   write the subscriptions as OPML 2.0
          herald snapshot [--size WxH] [--keys K]         print the screen after keys, headless
          herald --help | --version

        Options:
          --db PATH     the library file (default $XDG_DATA_HOME/herald/herald.db,
                        i.e. ~/.local/share/herald/herald.db; also HERALD_DB)
          --feeds DIR   read the feed files (JSON Feed) in DIR instead of the library
          --json        one JSON object per article and line
          --size WxH    snapshot size in cells (default 80x24)
          --keys K      snapshot keys, space-separated: j k g G enter esc q space pgup pgdn
                        home end up down left right tab backspace C-x F1 or any character

        Keys (in the reader, ? shows the keys of the screen you are on):
        \(KeyTable.plainText())

        Search: case and accents are ignored, the last word is a prefix, Korean, Japanese
        and Chinese are found inside words; "an exact phrase" and -word are understood.

        Environment:
          HERALD_DB           the library file
          BROWSER             the program that opens links (w3m, lynx, xdg-open, firefox --new-tab)
          HERALD_DEMO_DIR     where the bundled demo feeds are (found automatically)
        """
}
