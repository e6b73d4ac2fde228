import HeraldCore
import HeraldConfig

/// The search indexer, in the background: a reload stores its new articles without their
/// search entries, and the reader has them indexed after each reload and at start (when a
/// `herald reload` left some), a small batch at a time, while the keys keep working.
@MainActor
final class IndexingRun {
    /// How many articles still wait for the index.
    var waiting = 0
}

extension ReaderApp {
    /// Starts the indexer unless it is running; the status line says how many articles wait.
    func startIndexing() {
        guard let reloader, indexing == nil else { return }
        let run = IndexingRun()
        indexing = run
        feedList.holdsQueryCounts = true
        let progress = ProgressStream<Int>()
        effects.stream(.indexingProgress) { send in
            for await waiting in progress.reports { send(waiting) }
        } each: { waiting in
            run.waiting = waiting
            self.onChange()
        }
        effects.run(.indexing) {
            // A failure leaves the articles waiting: the next run (or a search) indexes them.
            try? await reloader.indexForSearch(progress: progress.report)
            progress.finish()
        } then: {
            self.effects.cancel(.indexingProgress)
            self.indexing = nil
            self.feedList.holdsQueryCounts = false
            self.feedList.countQueriesIfStale()
            self.onChange()
        }
    }
}

/// Indexing at the right end of the status line, while no reload is shown there:
/// `indexing 8,214`.
enum IndexingIndicator {
    static func text(waiting: Int) -> String {
        var digits = String(waiting)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "indexing " + digits + grouped
    }

    static func draw(waiting: Int, into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1, waiting > 0 else { return }
        let text = text(waiting: waiting)
        let width = DisplayWidth.of(text)
        guard width + 2 < canvas.size.width else { return }
        canvas.write(text, x: canvas.size.width - width - 1, y: row, style: theme.status)
    }
}
