import HeraldCore

@testable import HeraldUI
@testable import HeraldConfig

/// Drives a reader the way a user does: start it, press keys, let every load settle.
@MainActor
enum AppDriver {
    /// A reader over `repository`, started and settled.
    static func started(
        _ repository: any ArticleRepository, size: Size, clock: any DebounceClock = LiveDebounceClock()
    ) async -> ReaderApp {
        let app = ReaderApp(repository: repository, size: size, clock: clock)
        app.start()
        await app.settle()
        return app
    }

    /// A reader over `repository` with a config file's text applied, started and settled.
    static func started(_ repository: any ArticleRepository, size: Size, config: String) async -> ReaderApp {
        let app = ReaderApp(repository: repository, size: size)
        app.apply(ConfigFile.parse(config, file: "config"))
        app.start()
        await app.settle()
        return app
    }

    /// Presses each key, waiting for what it started to end before the next.
    static func press(_ app: ReaderApp, _ keys: [Key]) async {
        for key in keys {
            app.handle(key)
            await app.settle()
        }
    }
}
