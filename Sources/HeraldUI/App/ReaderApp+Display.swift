extension ReaderApp {
    /// Draws for a terminal of `count` colours (0: none, or `NO_COLOR`): below 8, the
    /// monochrome theme, as `set colors no` gives.
    public func adapt(toColors count: Int) {
        guard count < 8, !highlighter.monochrome else { return }
        theme = theme.monochrome()
        highlighter.monochrome = true
    }
}
