import HeraldCore
import HeraldNewsboat
import HeraldConfig

extension ImportNewsboatCommand {
    /// Reads every translated line back with Herald's own config reader: a line it finds a
    /// mistake in (an action that does nothing on the screen newsboat named, say) is taken
    /// out and listed with the reader's words, so the written config checks clean.
    static func checked(_ translation: NewsboatTranslation) -> NewsboatTranslation {
        var translation = translation
        var index = 0
        while index < translation.lines.count {
            if let problem = ConfigFile.parse(translation.lines[index], file: "").diagnostics.first {
                translation.drop(at: index, reason: "Herald's config reader says: \(problem.message)")
            } else {
                index += 1
            }
        }
        return translation
    }
}
