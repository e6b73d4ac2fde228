import HeraldCore
import HeraldUI

extension ImportNewsboatCommand {
    /// Directives and settings another part of Herald is adding: the config reader of this
    /// build does not know them yet, and they are written all the same (see the README).
    static let pendingNames = [
        "reload-interval", "notify-command", "text-width", "show-read-feeds", "show-read-articles",
        "highlight", "query", "filter",
    ]

    /// Reads every translated line back with Herald's own config reader: a line it finds a
    /// mistake in (an action that does nothing on the screen newsboat named, say) is taken
    /// out and listed with the reader's words, so the written config checks clean.
    static func checked(_ translation: NewsboatTranslation) -> NewsboatTranslation {
        var translation = translation
        var index = 0
        while index < translation.lines.count {
            let problems = ConfigFile.parse(translation.lines[index], file: "").diagnostics.filter {
                diagnostic in
                !pendingNames.contains { diagnostic.message.contains("`\($0)`") }
            }
            if let problem = problems.first {
                translation.drop(at: index, reason: "Herald's config reader says: \(problem.message)")
            } else {
                index += 1
            }
        }
        return translation
    }
}
