/// The text of `herald --help`.
enum Usage {
    static let version = "0.1.0"

    static let text = """
        herald — a keyboard-driven terminal reader for feeds

        Usage:
          herald [--feeds DIR]                      open the reader
          herald snapshot [--size WxH] [--keys K]   print the screen after keys, without a terminal
          herald --help | --version

        Options:
          --feeds DIR   read the feed files (JSON Feed) in DIR instead of the bundled demo feeds
          --size WxH    snapshot size in cells (default 80x24)
          --keys K      snapshot keys, space-separated: j k g G enter esc q space pgup pgdn
                        home end up down left right tab backspace C-x F1 or any character

        Keys:
          j/k, ↓/↑            move (scroll in an article)
          g/G, Home/End       first / last
          PgUp/PgDn, Space    page up / down
          Enter, l, →         open
          q, h, ←, Esc        back (q on the feed list quits)
          N                   toggle read in the article list
          Ctrl-C              quit

        Environment:
          HERALD_DEMO_DIR     where the bundled demo feeds are (found automatically)
        """
}
