public import HeraldCore
public import HeraldConfig

/// Runs the reader with no terminal: scripted keys in, the final screen out.
///
/// The app, views, frame diff and surface protocol are the terminal's own; only the surface
/// differs. After the start and after each key it waits until every load has settled, so the
/// result does not depend on timing. Search debounces use the immediate clock by default, so
/// `--keys "/ t e r m"` shows the results for "term". `colors` stands for the terminal's
/// colour count (0: a terminal without colours, or `NO_COLOR`).
public enum HeadlessSession {
    @MainActor
    public static func run(
        repository: any ArticleRepository, size: Size, keys: [Key], theme: Theme = Theme(),
        clock: any DebounceClock = ImmediateDebounceClock(), config: ReaderConfig = ReaderConfig(),
        colors: Int = 256
    ) async -> Canvas {
        let surface = HeadlessSurface(size: size)
        let renderer = FrameRenderer(surface: surface)
        let app = ReaderApp(repository: repository, size: size, theme: theme, clock: clock)
        app.apply(config)
        app.adapt(toColors: colors)
        app.start()
        await app.settle()
        renderer.draw(app.render())
        // One key a batch: each is handled once what the one before it started has settled.
        var script = keys[...]
        _ = await ReaderLoop.run(app) {
            script.popFirst().map { [.key($0)] }
        } afterBatch: {
            await app.settle()
            renderer.draw(app.render())
        }
        return surface.screen
    }
}

extension Canvas {
    /// The screen as text with trailing spaces trimmed from each row.
    public func trimmedText() -> String {
        text().split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var line = Substring(line)
                while line.last == " " { line = line.dropLast() }
                return String(line)
            }
            .joined(separator: "\n")
    }
}
