import Foundation
import HeraldAccounts
import HeraldCore
import HeraldFetch
import HeraldStore
import HeraldConfig

/// The config file: where it is, reading it, and `herald config check | default`.
extension GlobalOptions {
    /// `--config PATH`, else `$XDG_CONFIG_HOME/herald/config`, else `~/.config/herald/config`.
    func configFile() -> (path: String, named: Bool) {
        if let configPath { return (configPath, true) }
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        return (base + "/herald/config", false)
    }

    /// The config in force: the file's, or the defaults when there is no file. A file named
    /// with --config must exist; a mistake in it is a diagnostic, not an error (the rest of
    /// the file still counts).
    func loadConfig() throws -> ReaderConfig {
        let (path, named) = configFile()
        let data: Data
        do {
            // A regular file only: a FIFO would be waited on (`herald --config <(…)` never
            // started), a device read until the limit.
            data = try LocalFile.read(path, limit: 1_048_576, regularOnly: true)
        } catch FetchError.fileNotFound where !named {
            return ReaderConfig()
        } catch {
            throw UsageError("cannot read the config \(path): \(error)")
        }
        return ConfigFile.parse(String(decoding: data, as: UTF8.self), file: path, read: Self.readIncluded)
    }

    /// A file an `include` line names, read as the config is: a regular file, at most 1 MB.
    static func readIncluded(_ path: String) throws -> String {
        do {
            return String(
                decoding: try LocalFile.read(path, limit: 1_048_576, regularOnly: true), as: UTF8.self)
        } catch FetchError.fileNotFound {
            throw IncludeError(message: "no such file")
        }
    }
}

/// Why an included file could not be read, as `config check` says it.
struct IncludeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

enum ConfigCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws -> Int32 {
        switch arguments.first {
        case "check":
            let (path, _) = options.configFile()
            var config = try options.loadConfig()
            // Lines that are right but worth knowing about (a `delete` filter), among the
            // mistakes in file order: the files in the order read (the config first, then
            // what it includes), then line and column; equal places keep their order.
            let files = config.files
            func inFileOrder(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
                let order = { (d: ConfigDiagnostic) in (files.firstIndex(of: d.file) ?? 0, d.line, d.column) }
                return diagnostics.enumerated().sorted {
                    let (a, b) = (order($0.element), order($1.element))
                    return (a.0, a.1, a.2, $0.offset) < (b.0, b.1, b.2, $1.offset)
                }.map(\.element)
            }
            config.diagnostics = inFileOrder(config.diagnostics + config.notes)
            // `feed` lines are checked against the library, when there is one, and regular
            // expressions tried on its titles and authors.
            if !config.feedSettings.isEmpty || !config.regexes.isEmpty,
                FileManager.default.fileExists(atPath: options.libraryPath())
            {
                let store = try await options.openLibrary(importingDemo: false)
                let unknown = try await store.syncConfigFeedSettings(config.feedSettings)
                config.diagnostics += FeedSettingWarnings.unknownFeeds(unknown)
                config.diagnostics += try await slowRegexes(config.regexes, in: store, file: path)
                config.diagnostics = inFileOrder(config.diagnostics)
            }
            for diagnostic in config.diagnostics { Console.say("\(diagnostic)") }
            // The account: every setting it needs, and its password where others cannot read it.
            var accountProblem = false
            do {
                if let account = try AccountRun.config(config.settings.account, configPath: path) {
                    if case .missing(let why) = account.secret {
                        Console.say("\(path): account: \(why)")
                        accountProblem = true
                    } else if case .file(let file) = account.secret,
                        let why = AccountSecret.exposed((file as NSString).expandingTildeInPath)
                    {
                        Console.say("\(path): account: \(why)")
                        accountProblem = true
                    }
                }
            } catch let error as UsageError {
                Console.say("\(path): account: \(error.message)")
                accountProblem = true
            }
            if accountProblem { return 1 }
            // Warnings (a `feed` line for a feed not in the library) do not fail the check.
            if config.diagnostics.allSatisfy({ $0.message.hasPrefix("warning:") }) {
                Console.say(
                    FileManager.default.fileExists(atPath: path)
                        ? "\(path): fine" : "\(path): no such file (the defaults hold)")
                return 0
            }
            return 1
        case "default":
            print(ConfigFile.defaultText(), terminator: "")
            return 0
        default:
            throw UsageError("config takes check or default: herald config check | herald config default")
        }
    }

    /// The config's regular expressions too slow on the library.
    static func slowRegexes(_ regexes: [ConfigRegex], in store: LibraryStore, file: String) async throws
        -> [ConfigDiagnostic]
    {
        guard !regexes.isEmpty else { return [] }
        let slow = try await store.slowPatterns(regexes.map { ($0.field, $0.pattern) })
        return regexes.filter { slow.contains($0.pattern) }.map {
            $0.tooSlow(file: file, articles: LibraryStore.patternTrialArticles)
        }
    }
}
