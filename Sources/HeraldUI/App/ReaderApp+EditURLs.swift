import Foundation
import Glibc
import HeraldCore

/// newsboat's `E` (edit-urls): the subscriptions as a urls file in the user's editor; what
/// changed there is applied when the editor exits: lines added subscribe, a changed title or
/// tags set them, and lines deleted unsubscribe after a question (their articles go).
extension ReaderApp {
    func editURLs() {
        guard let editor = subscriptionEditor, let programs else {
            message = "The subscriptions are edited in a library, in a terminal (herald add and herald remove too)."
            return
        }
        work.start {
            let original: String
            do {
                original = try await editor.urlsText()
            } catch {
                self.message = "Could not read the subscriptions: \(error)"
                return
            }
            let file = NSTemporaryDirectory() + "herald-urls-\(UUID().uuidString).txt"
            defer { unlink(file) }
            // Only this user may read it from the start (addresses may hold private tokens).
            let descriptor = Glibc.open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            let handle = descriptor >= 0 ? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) : nil
            guard let handle, (try? handle.write(contentsOf: Data(original.utf8))) != nil, (try? handle.close()) != nil
            else {
                self.message = "Could not write \(file) for the editor."
                return
            }
            if let failure = programs.edit(file: file) {
                self.message = "The editor: \(failure); nothing changed."
                return
            }
            guard let edited = try? String(contentsOfFile: file, encoding: .utf8) else {
                self.message = "The edited file is not UTF-8 text (or is gone): nothing changed."
                return
            }
            let edits = await editor.edits(from: original, to: edited)
            let refused = edits.refused.first.map { " Not taken: \($0)" + (edits.refused.count > 1 ? " (and \(edits.refused.count - 1) more)." : ".") } ?? ""
            guard !edits.isEmpty else {
                self.message = "No change to the subscriptions." + refused
                return
            }
            if edits.removed.isEmpty {
                await self.applyURLEdits(edits, with: editor, refused: refused)
            } else {
                let count = edits.removed.count
                self.confirmation = Confirmation(
                    question: "Unsubscribe from \(count) feed\(count == 1 ? "" : "s") (their articles go, starred ones too)? (y/n)"
                ) {
                    self.work.start { await self.applyURLEdits(edits, with: editor, refused: refused) }
                }
                self.onChange()
            }
        }
    }

    private func applyURLEdits(_ edits: SubscriptionEdits, with editor: any SubscriptionEditing, refused: String) async {
        do {
            try await editor.apply(edits)
        } catch {
            message = "Could not change the subscriptions: \(error)"
            return
        }
        let parts = [
            edits.added.isEmpty ? nil : "\(edits.added.count) added (R fetches them)",
            edits.removed.isEmpty ? nil : "\(edits.removed.count) removed",
            edits.retitled.isEmpty ? nil : "\(edits.retitled.count) retitled",
            edits.retagged.isEmpty ? nil : "\(edits.retagged.count) retagged",
        ].compactMap { $0 }
        message = "Subscriptions: " + parts.joined(separator: ", ") + "." + refused
        if let feeds = try? await repository.feedSummaries() {
            feedList.replace(feeds, starred: try? await repository.starredCounts())
            showLibrary(feeds: feeds, starred: nil)
        }
        onChange()
    }
}
