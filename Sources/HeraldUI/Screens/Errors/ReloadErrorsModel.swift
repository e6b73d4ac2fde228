public import HeraldCore

/// The feeds whose last load failed (`!`): kept in the library, so they survive a restart.
@MainActor
public final class ReloadErrorsModel {
    /// The feeds that failed, then those read with errors (the last `readWithErrors`).
    public let failures: [ReloadFailure]
    public let readWithErrors: Int
    public var cursor = ListCursor()
    public init(failures: [ReloadFailure], readWithErrors: Int = 0) {
        (self.failures, self.readWithErrors) = (failures, readWithErrors)
    }

    public var selected: ReloadFailure? {
        failures.indices.contains(cursor.selected) ? failures[cursor.selected] : nil
    }
}
