import CMalloc
import Foundation
import HeraldCore
import HeraldNewsboat
import HeraldReload
import HeraldStore
import HeraldSync
import HeraldTerminal
import HeraldConfig
import HeraldUI

/// The `herald` command: the reader, and the commands that run without opening it.
@main
struct Herald {
    @MainActor
    static func main() async {
        // Two malloc arenas for the whole process, not one per thread that allocates (glibc
        // allows 16 on 2 cores): a reload's parse threads and the database thread hand
        // articles to each other, and each arena kept its own high-water mark of freed memory,
        // 1.5 MB more at the peak of a cold 200-feed reload. One arena saved 1.3 MB more, but
        // those threads then waited for its lock (twice the futex calls, 8% more CPU).
        // Set before any other thread starts: a thread keeps the arena it first had.
        mallopt(M_ARENA_MAX, 2)
        var arguments = Array(CommandLine.arguments.dropFirst())
        var library: String?
        do {
            let options = try GlobalOptions.parse(&arguments)
            library = options.libraryPath()
            let command = arguments.first
            switch command {
            case nil:
                exit(try await runReader(options))
            case "snapshot":
                try await SnapshotCommand.run(Array(arguments.dropFirst()), options: options)
            case "list":
                try await ListCommands.list(Array(arguments.dropFirst()), options: options)
            case "podcasts":
                exit(try await PodcastsCommand.run(Array(arguments.dropFirst()), options: options))
            case "tags":
                try await TagsCommand.run(Array(arguments.dropFirst()), options: options)
            case "search":
                try await ListCommands.search(Array(arguments.dropFirst()), options: options)
            case "reload":
                exit(try await ReloadCommand.run(Array(arguments.dropFirst()), options: options))
            case "parse":
                try await ParseCommand.run(Array(arguments.dropFirst()))
            case "extract":
                try await ExtractCommand.run(Array(arguments.dropFirst()))
            case "show":
                try await ShowCommand.run(Array(arguments.dropFirst()), options: options)
            case "add":
                try await SubscriptionCommands.add(Array(arguments.dropFirst()), options: options)
            case "feed":
                try await FeedCommand.run(Array(arguments.dropFirst()), options: options)
            case "remove":
                try await SubscriptionCommands.remove(Array(arguments.dropFirst()), options: options)
            case "import":
                try await ImportExportCommands.importFile(Array(arguments.dropFirst()), options: options)
            case "import-newsboat":
                try await ImportNewsboatCommand.run(Array(arguments.dropFirst()), options: options)
            case "export":
                try await ImportExportCommands.export(Array(arguments.dropFirst()), options: options)
            case "mark":
                try await AccountCommands.mark(Array(arguments.dropFirst()), options: options)
            case "account":
                exit(try await AccountCommands.run(Array(arguments.dropFirst()), options: options))
            case "sync":
                try await SyncCommand.run(Array(arguments.dropFirst()), options: options)
            case "manual":
                print(ManualCommand.manual(), terminator: "")
            case "completions":
                print(try ManualCommand.completions(arguments.dropFirst().first), terminator: "")
            case "config":
                exit(try await ConfigCommand.run(Array(arguments.dropFirst()), options: options))
            case "help", "-h", "--help":
                // The key section follows the config's bindings.
                print(Usage.text(keymap: (try? options.loadConfig())?.keymap ?? .standard))
            case "version", "--version":
                print("herald \(Usage.version)")
            default:
                throw UsageError("unknown command '\(command!)'")
            }
        } catch let error as UsageError {
            Console.complain("herald: \(error.message)\nTry 'herald --help'.")
            exit(2)
        } catch let error as SlowRegexError {
            // The query's own fault, as a query that does not parse is (`list`, `search`).
            Console.complain("herald: query: \(error)")
            exit(2)
        } catch let error as SQLiteError where error.isCorrupt {
            Console.complain(
                "herald: \(error)\nherald: nothing more was written to it. Restore a copy of \(library ?? "it"), "
                    + "or move it aside and herald starts a new library (`herald import` an OPML export to refill it)."
            )
            exit(1)
        } catch {
            Console.complain("herald: \(error)")
            exit(1)
        }
    }

    @MainActor
    static func runReader(_ options: GlobalOptions) async throws -> Int32 {
        var config = try options.loadConfig()
        // A library is opened with the config's filters set (`openLibrary`).
        let repository = try await options.openRepository()
        // r and R reload through the library; feed files read with --feeds have none.
        let configPath = options.configFile().path
        let makeReloader = { (settings: Settings) -> (any FeedReloading)? in
            (repository as? LibraryStore).map { store -> any FeedReloading in
                var reloader = Reloader(store: store, jobs: settings.reloadJobs)
                reloader.retention = (settings.keepDays, settings.keepArticles)
                // An account that cannot be set up (a setting missing) says so at each reload,
                // as a failure of its own; the local feeds reload all the same.
                do {
                    guard let account = try AccountRun.config(settings.account, configPath: configPath) else {
                        return reloader
                    }
                    return AccountReloader(local: reloader, account: account, store: store)
                } catch {
                    let problem = (error as? UsageError)?.message ?? "\(error)"
                    return MisconfiguredAccountReloader(
                        local: reloader, source: settings.account.source, problem: problem)
                }
            }
        }
        if let store = repository as? LibraryStore {
            // `feed` lines naming no feed of the library: warnings on the status line.
            let unknown = try await store.syncConfigFeedSettings(config.feedSettings)
            config.diagnostics += FeedSettingWarnings.unknownFeeds(unknown)
        }
        let reloader = makeReloader(config.settings)
        // The account's last sync failed (here or in `herald reload` from cron): `!` says so
        // from the start (three small reads of the library).
        let standing = await reloader?.standingFailures() ?? []
        // An account never synced yet: the reader opens at once, and its first sync starts
        // (an empty screen would wait for a key nobody knows to press).
        if reloader is AccountReloader, let store = repository as? LibraryStore,
            try await store.accountValue("last-sync") == nil
        {
            config.settings.reloadOnStart = true
        }
        // `set sync-dir`: the reader syncs while it is open (feed files read with --feeds do not).
        let makeSync = { (settings: Settings) -> FolderSync? in
            // A library that cannot be written is not synced (the sync writes it).
            guard let store = repository as? LibraryStore, !store.access.isReadOnly,
                let folder = settings.syncDirectory
            else {
                return nil
            }
            return FolderSync(store: store, folder: URL(fileURLWithPath: SyncCommand.expandingHome(folder)))
        }
        // The podcast queue downloads while the reader is open; what a kill or `q` stopped
        // goes on from where it stopped at the next start.
        let podcasts = (repository as? LibraryStore).map {
            PodcastDownloads(store: $0, maxDownloads: config.settings.maxDownloads)
        }
        if let podcasts { Task { try? await podcasts.resume() } }
        var reader: ReaderApp?
        let status = try await ReaderSession.run { size in
            let app = ReaderApp(repository: repository, size: size)
            reader = app
            app.reloads.reloader = reloader
            app.reloads.recall(accountFailures: standing)
            app.sync.library = makeSync(config.settings)
            app.podcasts = podcasts
            app.pages = (repository as? LibraryStore).map { WebPages(store: $0) }
            app.subscriptionEditor = (repository as? LibraryStore).map(LibraryURLsEditor.init(store:))
            app.apply(config)
            // Another process writing the library (herald add, a reload from cron): the
            // screens follow without a key.
            if repository is LibraryStore {
                app.watchLibrary(LibraryWatcher(database: URL(fileURLWithPath: options.libraryPath())).changes())
            }
            if let reason = (repository as? LibraryStore)?.access.reason {
                app.say("Read only: the library cannot be written (\(reason)); changes are not saved.")
            }
            // `:set reload-jobs 50` and the like: the next reload uses them; `:set sync-dir`
            // syncs with another folder from now on.
            app.onSettingsChange = { [unowned app] in
                app.reloads.reloader = makeReloader($0)
                let downloads = $0.maxDownloads
                if let podcasts { Task { await podcasts.setMaxDownloads(downloads) } }
                let sync = makeSync($0)
                if sync?.folder != (app.sync.library as? FolderSync)?.folder { app.sync.library = sync }
            }
            return app
        }
        // `q` right after a change (`N q` typed together): its write ends first, and the sync it
        // asked for runs now rather than at the next start (the terminal is already given
        // back; a sync with little to write takes milliseconds).
        if status == 0, let reader {
            reader.onChange = {}  // the terminal is gone
            // A write waiting for a busy library is saved before herald ends: say so if that
            // takes a while (the terminal is back: Ctrl-C leaves it unsaved).
            let notice = Task {
                try await Task.sleep(for: .seconds(2))
                Console.complain(
                    "herald: still saving your last changes (another program may be writing the library)…")
            }
            await reader.writes.finish()
            notice.cancel()
            if let downloading = try? await podcasts?.entries().count(where: { $0.state == .downloading }),
                downloading > 0
            {
                Console.complain(
                    "herald: \(downloading) podcast download\(downloading == 1 ? "" : "s") stopped; "
                        + "the next start (or herald podcasts download) goes on from where \(downloading == 1 ? "it" : "they") stopped.")
            }
            if reader.sync.waits, let sync = reader.sync.library {
                do { _ = try await sync.sync() } catch { Console.complain("herald: sync: \(error)") }
            }
        }
        return status
    }
}
