/// Something that syncs the library with the other devices while the reader is open (the
/// real one writes and reads a sync folder; see HeraldSync's `FolderSync`).
///
/// `sync()` runs on the library's actor: the reader awaits it from a task and only hears the
/// result. `folderChanges()` tells, without polling, that another device's files changed.
public protocol LibrarySyncing: Sendable {
    /// Syncs once: writes this device's changes, reads and applies the others'.
    func sync() async throws -> LibrarySyncResult
    /// A signal each time another device's files in the folder change (several changes
    /// close together may come as one). Ending the iteration stops the watching.
    func folderChanges() -> AsyncStream<Void>
}

/// What one sync brought into the library, for the screen to follow.
public struct LibrarySyncResult: Sendable, Hashable {
    /// Articles whose flag another device changed, grouped by flag and new value (at most
    /// `LibrarySyncResult.idLimit` ids in all; `flagsChanged` counts every one).
    public var flags: [FlagChange] = []
    /// Flags changed, all told.
    public var flagsChanged = 0
    /// Feeds subscribed, unsubscribed or retagged.
    public var feedsChanged = 0
    /// What was read or skipped that a user should know (a corrupt record, a file from a
    /// newer Herald), one line each.
    public var problems: [String] = []

    /// The most article ids a result carries: past them the screen reads its lists again.
    public static let idLimit = 5_000

    public init(
        flags: [FlagChange] = [], flagsChanged: Int = 0, feedsChanged: Int = 0, problems: [String] = []
    ) {
        self.flags = flags
        self.flagsChanged = flagsChanged
        self.feedsChanged = feedsChanged
        self.problems = problems
    }

    /// True when the library shows something it did not before the sync.
    public var changedLibrary: Bool { flagsChanged > 0 || feedsChanged > 0 }

    /// Every id carried, when no change was left out of them.
    public var isComplete: Bool { flags.reduce(0) { $0 + $1.articleIDs.count } == flagsChanged }

    /// Articles whose `flag` is now `value`.
    public struct FlagChange: Sendable, Hashable {
        public var flag: ArticleFlag
        public var value: Bool
        public var articleIDs: [String]

        public init(flag: ArticleFlag, value: Bool, articleIDs: [String]) {
            self.flag = flag
            self.value = value
            self.articleIDs = articleIDs
        }
    }
}
