import HeraldConfig

/// The text of `herald --help` (its key section comes from the action table).
enum Usage {
    static let version = "0.4.0"

    static func text(keymap: Keymap = .standard) -> String {
        """
        herald — a keyboard-driven terminal reader for feeds

        Usage:
        \(CommandTable.usageLines().map { $0 }.joined(separator: "\n"))

        Options:
          --config PATH the config file (bind, unbind, set: herald config default)
          --db PATH     the library file (default $XDG_DATA_HOME/herald/herald.db,
                        i.e. ~/.local/share/herald/herald.db; also HERALD_DB)
          --feeds DIR   read the feed files (JSON Feed) in DIR instead of the library
          --json        one JSON object per line (list adds link, tags and enclosures)
          --feed URL    list: only this feed's articles (herald export lists the feeds)
          --tag T       list: only the articles of feeds tagged T (herald tags lists them);
                        add: tag the feed T (repeat for more tags; tags are only ever added)
          --starred     list: only starred articles
          --unread      list: only unread articles (list's filters combine)
          --limit N     list: stop after N articles; search: N results (default 50)
          --title T     add: call the feed T (replaces its title, even of a known feed)
          --demo        remove: remove the bundled demo feeds (they also go by themselves
                        when you first add or import a feed of your own)
          --due         reload: only feeds whose reload interval (their own, else
                        set reload-interval) has passed since their last try: for cron
          --size WxH    snapshot size in cells (default 80x24)
          --keys K      snapshot keys, space-separated: j k g G enter esc q space pgup pgdn
                        home end up down left right tab backspace C-x F1 or any character

        Keys (in the reader, ? shows the keys of the screen you are on):
        \(KeyTable.plainText(keymap: keymap))

        Search: case and accents are ignored, the last word is a prefix, Korean, Japanese
        and Chinese are found inside words; "an exact phrase" and -word are understood.

        Environment:
          HERALD_DB           the library file
          BROWSER             the program that opens links (w3m, lynx, xdg-open, firefox --new-tab)
          HERALD_PLAYER       the program that plays podcasts and videos (mpv, vlc); else BROWSER
          HERALD_DEMO_DIR     where the bundled demo feeds are (found automatically)
          XDG_CONFIG_HOME     the config file is $XDG_CONFIG_HOME/herald/config (default
                              ~/.config/herald/config; herald config default prints one)
        """
    }
}
