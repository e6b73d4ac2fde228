import CLibXML2
import Foundation
import Synchronization

/// Counts the blocks libxml2 allocates on this thread during a piece of work and has not
/// freed when it returns: a leak test that needs no sanitizer.
///
/// libxml2 allocates through function pointers (`xmlMemSetup`); the ones installed here call
/// malloc and free as the defaults do, so blocks cross the switch either way, and they only
/// take note while a thread has asked to watch (other tests' parses on other threads are not
/// counted; their frees of older blocks are ignored).
enum LibXMLAllocations {
    private struct State {
        var watching: pthread_t?
        var live: Set<UInt> = []
    }

    private static let state = Mutex(State())

    private static let installed: Void = {
        xmlMemSetup(
            { pointer in
                if let pointer { LibXMLAllocations.forget(pointer) }
                free(pointer)
            },
            { size in LibXMLAllocations.note(malloc(size)) },
            { pointer, size in
                let tracked = pointer.map { LibXMLAllocations.forget($0) } ?? true
                let moved = realloc(pointer, size)
                return tracked ? LibXMLAllocations.note(moved) : moved
            },
            { text in LibXMLAllocations.note(text.flatMap { strdup($0) }) })
    }()

    /// How many of the blocks `work` made libxml2 allocate are still allocated after it.
    static func leftOver(_ work: () throws -> Void) rethrows -> Int {
        _ = installed
        state.withLock {
            $0.watching = pthread_self()
            $0.live = []
        }
        defer { state.withLock { $0.watching = nil } }
        try work()
        return state.withLock { $0.live.count }
    }

    private static func note<T>(_ block: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<T>? {
        note(UnsafeMutableRawPointer(block)).map { $0.assumingMemoryBound(to: T.self) }
    }

    private static func note(_ block: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let block else { return nil }
        state.withLock {
            if let watching = $0.watching, pthread_equal(watching, pthread_self()) != 0 {
                $0.live.insert(UInt(bitPattern: block))
            }
        }
        return block
    }

    /// Forgets a block being freed or moved; true when it was being counted.
    @discardableResult
    private static func forget(_ block: UnsafeMutableRawPointer) -> Bool {
        state.withLock { $0.live.remove(UInt(bitPattern: block)) != nil }
    }
}
