public import HeraldConfig

/// What happens to the reader, in the order it happens: the one kind of thing its loop waits
/// for, whatever the terminal or the script it comes from.
public enum ReaderEvent: Sendable, Equatable {
    /// A key (a mouse event and a paste are keys too).
    case key(Key)
    /// The terminal has this size now.
    case resized(Size)
    /// The session ends with this exit status (128 + N after signal N, a hang-up).
    case end(Int32)
}

/// The reader's one loop. The terminal (`ReaderSession`) and `herald snapshot`
/// (`HeadlessSession`) both run it; they differ only in where the events come from and in
/// what happens after each batch (the terminal's frames are asked for by the app itself and
/// coalesce; a headless session waits for the loads to settle and draws).
@MainActor
public enum ReaderLoop {
    /// Hands each event to the app, in order, until the app is finished, an `.end` arrives
    /// or `next` returns nil (the input is gone); returns the exit status.
    ///
    /// `next` waits for the next batch of events (the keys read in one go are one batch);
    /// `afterBatch` runs once each batch has been handled.
    public static func run(
        _ app: ReaderApp, next: @MainActor () async -> [ReaderEvent]?,
        afterBatch: @MainActor () async -> Void = {}
    ) async -> Int32 {
        while let batch = await next() {
            for event in batch {
                switch event {
                case .key(let key):
                    if !app.isFinished { app.handle(key) }
                case .resized(let size):
                    app.size = size
                    app.handle(.resize)
                case .end(let status):
                    return status
                }
            }
            await afterBatch()
            if app.isFinished { return 0 }
        }
        return 0
    }
}
