/// The one table of keys: every key of every screen, what it does and where.
///
/// Key handling looks keys up here (`action(for:on:)`); the hint line, the `?` help screen,
/// `herald --help` and the README's key table are all printed from it, so they cannot
/// disagree with what the keys do.
public enum ActionTable {
    private static let lists = ScreenKind.lists
    private static let scrolling: [ScreenKind] = ScreenKind.lists + [.results, .article, .page]

    /// The default bindings, in the order the help lists them.
    public static let bindings: [ActionBinding] = [
        ActionBinding(.help, [.character("?")], on: [], "show the keys of this screen", hint: "?:help"),
        ActionBinding(.search, [.character("/")], on: [], "search every feed as you type", hint: "/:search"),
        ActionBinding(.quitNow, [.control("c"), .character("Q")], on: [], "quit at once, from any screen"),
        ActionBinding(
            .redraw, [.control("l")], on: [], "redraw the screen (after other programs wrote over it)"),
        // newsboat's `u` is its show-urls (as here); undo, which newsboat has not, is U.
        ActionBinding(
            .undo, [.character("U")], on: [], "undo the last change of read or starred flags (up to 50 back)"),
        ActionBinding(
            .commandLine, [.character(":")], on: [],
            "the command line: :mark-read, :star, :undo, :set NAME VALUE … (:help lists them)"),

        // newsboat's j and k on an article list go to the next and previous feed, and its J and
        // K (next, prev) move a row there, as here.
        ActionBinding(
            .down, [.character("j"), .down], on: scrolling.filter { $0 != .articles },
            "down a row (a line in an article)"),
        ActionBinding(
            .up, [.character("k"), .up], on: scrolling.filter { $0 != .articles },
            "up a row (a line in an article)"),
        ActionBinding(.down, [.down, .character("J")], on: [.articles], "down a row"),
        ActionBinding(.up, [.up, .character("K")], on: [.articles], "up a row"),
        ActionBinding(
            .pageDown, [.pageDown, .character(" ")], on: lists + [.results, .page], "down a page"),
        ActionBinding(.pageDown, [.pageDown], on: [.article], "down a page"),
        ActionBinding(
            .readOn, [.character(" ")], on: [.article], "down a page; at the end, the next unread article",
            hint: "Space:read on"),
        ActionBinding(.pageUp, [.pageUp], on: lists + [.results, .page], "up a page"),
        ActionBinding(.pageUp, [.pageUp, .character("b")], on: [.article], "up a page"),
        // newsboat's g and G sort the feed list and the article lists; elsewhere they go to the
        // top and the bottom, as Home and End do everywhere.
        ActionBinding(.top, [.home], on: [.feeds, .articles], "to the first row (:N Enter: row N)"),
        ActionBinding(.bottom, [.end], on: [.feeds, .articles], "to the last row"),
        ActionBinding(
            .top, [.character("g"), .home], on: scrolling.filter { $0 != .feeds && $0 != .articles },
            "to the first row (:N Enter: row N)"),
        ActionBinding(
            .bottom, [.character("G"), .end], on: scrolling.filter { $0 != .feeds && $0 != .articles },
            "to the last row"),
        ActionBinding(
            .sort, [.character("g")], on: [.feeds, .articles],
            "sort the list (asks: feeds by order added, title or unread; articles newest or oldest first)"),
        ActionBinding(.reverseSort, [.character("G")], on: [.feeds, .articles], "the list in the other order"),
        ActionBinding(.down, [.down, .control("n")], on: [.search], "down a result"),
        ActionBinding(.up, [.up, .control("p")], on: [.search], "up a result"),
        ActionBinding(.pageDown, [.pageDown], on: [.search], "down a page of results"),
        ActionBinding(.pageUp, [.pageUp], on: [.search], "up a page of results"),
        ActionBinding(.top, [.home], on: [.search], "to the first result"),
        ActionBinding(.bottom, [.end], on: [.search], "to the last result"),

        ActionBinding(
            .open, [.enter, .right],
            on: [.feeds, .articles, .tags, .links, .errors, .results],
            "open the selected row", hint: "Enter:open"),
        ActionBinding(.open, [.enter], on: [.search], "open the selected result", hint: "Enter:open"),
        ActionBinding(
            .focusResults, [.tab], on: [.search, .results], "move between the query and the results",
            hint: "Tab:results"),
        ActionBinding(.search, [.character("/")], on: [.results], "edit the query"),
        ActionBinding(.back, [.escape], on: [.search], "close search", hint: "Esc:back"),
        ActionBinding(
            .back, [.character("q"), .character("h"), .left, .escape],
            on: [.articles, .article, .results, .tags, .links, .errors, .page, .downloads], "back to the screen before",
            hint: "q:back"),
        ActionBinding(.quit, [.character("q")], on: [.feeds], "quit", hint: "q:quit"),

        ActionBinding(
            .nextUnread, [.character("n")], on: [.feeds, .articles, .article, .results],
            "next unread article (then on to the next feed with unread articles)", hint: "n:next unread"),
        ActionBinding(
            .previousUnread, [.character("p")], on: [.feeds, .articles, .article, .results],
            "previous unread article (then back to the previous feed)"),
        ActionBinding(
            .nextArticle, [.character("J")], on: [.article], "next article of the list", hint: "J/K:next/prev"
        ),
        ActionBinding(.previousArticle, [.character("K")], on: [.article], "previous article of the list"),
        ActionBinding(.nextFeed, [.character("j")], on: [.articles], "next feed"),
        ActionBinding(.previousFeed, [.character("k")], on: [.articles], "previous feed"),
        ActionBinding(
            .randomUnread, [.control("k")], on: [.feeds, .articles, .article], "a random unread article"),
        ActionBinding(
            .toggleRead, [.character("N")], on: [.articles, .article, .results], "mark read / unread",
            hint: "N:read"),
        ActionBinding(
            .toggleStar, [.character("*"), .control("e")], on: [.articles, .article, .results],
            "star / unstar (newsboat's flags came over as the star)", hint: "*:star"),
        ActionBinding(
            .toggleShowRead, [.character("l")], on: [.feeds, .articles],
            "show or hide the feeds (articles) with nothing unread"),
        ActionBinding(
            .openInBrowser, [.character("o")], on: [.articles, .article, .results, .links],
            "open the article's link with $BROWSER (in the article, a digit: link N of the text)", hint: "o:open link"),
        ActionBinding(
            .openInBrowser, [.character("o")], on: [.feeds], "open the feed's web site with $BROWSER"),
        ActionBinding(
            .openInBrowserAndMarkRead, [.character("O")], on: [.articles, .article, .results],
            "open the article's link with $BROWSER and mark it read"),
        ActionBinding(
            .gotoURL, [.character("#")], on: [.article], "open link N of the text (asks for N)"),
        ActionBinding(
            .showLinks, [.character("u"), .character("L")], on: [.articles, .article],
            "list every link (article, text, images, media) to open or copy one", hint: "u:links",
            hintOn: [.article]),
        ActionBinding(
            .copyURL, [.character("y")], on: [.articles, .article, .results, .links],
            "copy the link to the clipboard (OSC 52, also over ssh)"),
        ActionBinding(
            .play, [.character("P")], on: [.articles, .article],
            "play the article's podcast or video with $HERALD_PLAYER (else $BROWSER)"),
        ActionBinding(
            .enqueue, [.character("e")], on: [.articles, .article],
            "add the article's podcast to the download queue"),
        ActionBinding(
            .fullArticle, [.character("x")], on: [.articles, .article, .results],
            "the whole article from its web page (again: the feed's text)"),
        ActionBinding(
            .showDownloads, [.character("d")], on: [.feeds, .articles, .article],
            "the podcast queue: downloads, their progress, play a finished one"),
        ActionBinding(
            .open, [.enter], on: [.downloads], "play the selected episode (when downloaded)", hint: "Enter:play"),
        ActionBinding(
            .play, [.character("p")], on: [.downloads], "play the selected episode (when downloaded)"),
        ActionBinding(
            .downloadNow, [.character("d")], on: [.downloads],
            "download the selected episode now (again, from where it stopped)", hint: "d:download"),
        ActionBinding(.cancelDownload, [.character("c")], on: [.downloads], "stop its download (kept for a resume)"),
        ActionBinding(
            .deleteDownload, [.character("D")], on: [.downloads],
            "remove it from the queue (its file stays; a played one's goes with delete-played-files)",
            hint: "D:remove"),
        ActionBinding(
            .purgeDownloads, [.character("P")], on: [.downloads], "remove the played episodes from the queue"),
        ActionBinding(.markPlayed, [.character("m")], on: [.downloads], "mark it played, or not"),
        ActionBinding(.moreDownloads, [.character("+")], on: [.downloads], "one more download at once"),
        ActionBinding(.fewerDownloads, [.character("-")], on: [.downloads], "one fewer download at once"),
        ActionBinding(
            .save, [.character("s")], on: [.articles, .article],
            "save the article as text to a file (asks for the name; set save-path)"),
        ActionBinding(
            .pipeTo, [.character("|")], on: [.articles, .article],
            "pipe the article as text to a command (asks for it)"),
        ActionBinding(
            .bookmark, [.control("b")], on: [.articles, .article, .links],
            "bookmark the article's link with bookmark-cmd"),
        ActionBinding(
            .toggleSource, [.control("u")], on: [.article], "the article's HTML as fetched, or its text again"),
        ActionBinding(
            .macroPrefix, [.character(",")], on: [], "run a macro of the config: , then its key"),
        ActionBinding(
            .markListRead, [.character("A")], on: [.feeds, .articles], "mark the feed (or list) read"),
        ActionBinding(
            .markAllRead, [.character("C")], on: [.feeds, .articles], "mark every article read (asks first)"),
        ActionBinding(
            .showTags, [.character("t")], on: [.feeds, .articles],
            "tags: the articles of the feeds with a tag",
            hint: "t:tags", hintOn: [.feeds]),
        ActionBinding(
            .reload, [.character("r")], on: [.feeds, .articles], "reload the selected (or open) feed"),
        ActionBinding(
            .reloadAll, [.character("R")], on: [.feeds, .articles], "reload every feed", hint: "R:reload",
            hintOn: [.feeds]),
        // newsboat's E edits the urls; the errors Herald had on E are on ! (a failed feed's mark).
        ActionBinding(
            .editURLs, [.character("E")], on: [.feeds],
            "edit the subscriptions as a urls file in $VISUAL or $EDITOR (add, remove, retitle, retag)"),
        ActionBinding(
            .showErrors, [.character("!")], on: [.feeds, .articles],
            "why feeds failed or read with errors (Enter: whole message)"),
    ]

    /// newsboat's default keys that do nothing in Herald, with newsboat's operation and what
    /// a newsboat user can do instead: said when pressed, so no key of theirs is silent.
    public static let newsboatAbsent: [Key: String] = [
        .character("D"): "delete-article: not in Herald; keep-days and keep-articles remove old articles",
        .control("d"): "delete-all-articles: not in Herald; keep-days and keep-articles remove old articles",
        .character("$"): "purge-deleted: Herald deletes nothing it shows",
        .character("F"): "set-filter: / searches, :mark-read QUERY acts on a query, query lines make lists",
        .character("f"): "select-filter: query lines in the config are lists on the feed list",
        .control("f"): "clear-filter: Herald's lists have no filter to clear",
        .character("v"): "view-dialogs: Herald's screens are a stack, q goes back",
        .control("v"): "next-dialog: Herald's screens are a stack, q goes back",
        .control("g"): "prev-dialog: Herald's screens are a stack, q goes back",
        .control("r"): "reload-urls: herald add and herald remove change the feeds",
        .control("t"): "clear-tag: q leaves a tag's list",
        .control("n"): "next-unread-feed: n goes on to the next feed with unread articles",
        .control("p"): "prev-unread-feed: p goes back to the previous feed with unread articles",
    ]

    /// What `key` does on `screen` with the default bindings.
    public static func action(for key: Key, on screen: ScreenKind) -> Action? {
        Keymap.standard.action(for: key, on: screen)
    }

    /// The default bindings of a screen (its own first, then the global ones).
    public static func bindings(on screen: ScreenKind) -> (own: [ActionBinding], global: [ActionBinding]) {
        Keymap.standard.bindings(on: screen)
    }

    /// The default hint line of a screen.
    public static func hint(for screen: ScreenKind) -> String { Keymap.standard.hint(for: screen) }

    /// The key hint line of a screen: its first hint, `?:help`, its other hints, `/:search`,
    /// then the way out (`q:back` or `q:quit`), so a narrow screen still shows how to find
    /// every key. Made once per keymap and screen (it is drawn on every frame).
    static func makeHint(_ keymap: Keymap, _ screen: ScreenKind) -> String {
        let (own, global) = keymap.bindings(on: screen)
        var seen = Set<String>()
        func labels(_ rows: [ActionBinding]) -> [String] {
            rows.compactMap { $0.hint(on: screen) }.filter { seen.insert($0).inserted }
        }
        let leaving: Set<Action> = [.back, .quit]
        let main = labels(own.filter { !leaving.contains($0.action) })
        let exit = labels(own.filter { leaving.contains($0.action) })
        // In the search prompt `?` is text: the hint does not offer it there.
        let help = screen == .search ? [] : labels(global.filter { $0.action == .help })
        let search =
            screen == .search || screen == .results ? [] : labels(global.filter { $0.action == .search })
        return (main.prefix(1) + help + main.dropFirst() + search + exit).joined(separator: "  ")
    }

    /// What a digit does, for the help (newsboat's cmd-one … and one …).
    public static let digitNote =
        "A digit on a list starts the command line with it: :7 Enter goes to row 7 (on the feed list, feed 7). In an article, 1 to 9 open link 1 to 9 of the text, 0 link 10."
}
