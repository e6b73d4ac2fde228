import HeraldCore
import HeraldNewsboat
import HeraldConfig

extension ImportNewsboatCommand {
    /// Applies every translated directive, in order, as Herald's config reader would: one
    /// it finds a mistake in (an action that does nothing on the screen newsboat named, say)
    /// is taken out, and does not count for those after it, and is listed with the reader's
    /// words; so the written config checks clean.
    static func checked(_ translation: NewsboatTranslation) -> NewsboatTranslation {
        var translation = translation
        var config = ReaderConfig()
        var index = 0
        while index < translation.directives.count {
            var tried = config
            if let problem = tried.apply(translation.directives[index].directive).first {
                translation.drop(at: index, reason: "Herald's config reader says: \(problem.message)")
            } else {
                config = tried
                index += 1
            }
        }
        return translation
    }
}
