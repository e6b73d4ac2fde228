extension ReaderApp {
    /// Draws for a terminal of `count` colours (0: none, or `NO_COLOR`): below 8, the
    /// monochrome theme, as `set colors no` gives.
    public func adapt(toColors count: Int) {
        display = (display?.colours ?? theme, count < 8)
        applyDisplaySettings()
    }

    /// The display settings at work: the theme (colours or monochrome, dates, text column,
    /// cursor), highlights and the feed list's rows. After the config, and after `:set`.
    func applyDisplaySettings() {
        let (colours, terminalMonochrome) = display ?? (theme, false)
        let monochrome = terminalMonochrome || !settings.colors
        var theme = settings.applied(to: colours)
        if monochrome { theme = theme.monochrome() }
        self.theme = theme
        highlighter.monochrome = monochrome
        if textHighlighter.monochrome != monochrome { textHighlighter.monochrome = monochrome }
        feedList.showReadFeeds = settings.showReadFeeds
        feedList.sort = settings.feedSort
    }
}
