public import HeraldCore

/// The podcast queue (`d`), podboat's screen inside the reader: every episode with its state,
/// a progress bar while it downloads, and why it failed. It follows the queue by itself
/// (`PodcastQueue.changes`): four frames a second while something downloads, none otherwise.
@MainActor
public final class DownloadsModel {
    let queue: any PodcastQueue
    let effects: Effects
    public private(set) var entries: [Download] = []
    public private(set) var isLoaded = false
    public private(set) var failure: String?
    public var cursor = ListCursor()
    /// At most this many download at once (`+`, `-`; `set max-downloads`).
    public var maxDownloads: Int

    init(queue: any PodcastQueue, work: PendingWork, maxDownloads: Int) {
        self.queue = queue
        self.effects = Effects(work: work)
        self.maxDownloads = maxDownloads
    }

    public var selected: Download? {
        entries.indices.contains(cursor.selected) ? entries[cursor.selected] : nil
    }

    /// Reads the queue, then follows it; `changed` asks for a frame after each change.
    func start(visible: @escaping @MainActor () -> Int, changed: @escaping @MainActor () -> Void) {
        let queue = self.queue
        effects.run(.load) {
            await Result { try await queue.entries() }
        } then: { [weak self] read in
            self?.show(read, visible: visible())
        }
        effects.stream(.refresh, settles: false) { send in
            for await _ in await queue.changes() {
                send(await Result { try await queue.entries() })
            }
        } each: { [weak self] read in
            self?.show(read, visible: visible())
            changed()
        }
    }

    /// Reads the queue again now (after a key that changed it).
    func refresh(visible: Int) {
        let queue = self.queue
        effects.run(.page) {
            await Result { try await queue.entries() }
        } then: { [weak self] read in
            self?.show(read, visible: visible)
        }
    }

    private func show(_ read: Result<[Download], any Error>, visible: Int) {
        isLoaded = true
        switch read {
        case .success(let entries):
            // The selection stays on its episode when others come or go.
            let id = selected?.id
            self.entries = entries
            failure = nil
            if let id, let row = entries.firstIndex(where: { $0.id == id }) {
                cursor.select(row, count: entries.count, visible: visible)
            } else {
                cursor.clamp(count: entries.count, visible: visible)
            }
        case .failure(let error): failure = "Could not read the podcast queue: \(error)"
        }
    }

    func leave() { effects.close() }
}
