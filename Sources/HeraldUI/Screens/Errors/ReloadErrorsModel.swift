public import HeraldCore

/// The feeds whose last load failed (`!`): kept in the library, so they survive a restart.
/// A server account that could not be synced comes first.
@MainActor
public final class ReloadErrorsModel {
    /// The account (the first `accounts`), the feeds that failed, then those read with
    /// errors (the last `readWithErrors`).
    public let failures: [ReloadFailure]
    public let accounts: Int
    public let readWithErrors: Int
    public var cursor = ListCursor()
    public init(failures: [ReloadFailure], accounts: Int = 0, readWithErrors: Int = 0) {
        (self.failures, self.accounts, self.readWithErrors) = (failures, accounts, readWithErrors)
    }

    public var selected: ReloadFailure? {
        failures.indices.contains(cursor.selected) ? failures[cursor.selected] : nil
    }
}
