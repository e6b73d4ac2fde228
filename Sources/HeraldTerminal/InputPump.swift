import CTerminalSignals
import Dispatch
import Foundation
import Synchronization

/// What wakes the main loop.
public enum TerminalEvent: Sendable, Equatable {
    /// stdin has bytes: drain keys with `Terminal.readKeys()`, then call `resume()`.
    case input
    /// A signal arrived (SIGWINCH, or one that ends the reader: see `handled_signals` in CTerminalSignals).
    case signal(Int32)
    /// stdin was closed or hung up (the ssh session dropped).
    case hangup
}

/// A background thread that only waits for stdin (and the signal pipe) to be readable and
/// tells the main actor through an `AsyncStream`. It never reads keys itself: ncurses does
/// that on the main actor, so key decoding stays with ncurses and nothing blocks the UI.
public final class InputPump: Sendable {
    public let events: AsyncStream<TerminalEvent>
    private let continuation: AsyncStream<TerminalEvent>.Continuation
    private let drained = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    private let inputFD: Int32
    private let signalFD: Int32

    public init(inputFD: Int32 = 0, signalFD: Int32) {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.inputFD = inputFD
        self.signalFD = signalFD
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "herald-input"
        thread.start()
    }

    /// The main actor has drained the input it was told about.
    public func resume() { drained.signal() }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        drained.signal()
        continuation.finish()
    }

    private func run() {
        hs_unblock_handled_signals()
        while !stopped.load(ordering: .relaxed) {
            let ready = hs_wait_input(inputFD, signalFD, 500)
            if ready & 2 != 0 {
                var numbers = [Int32](repeating: 0, count: 32)
                let count = Int(hs_read_signals(signalFD, &numbers, 32))
                for number in numbers.prefix(count) { continuation.yield(.signal(number)) }
            }
            if ready & 1 != 0 {
                continuation.yield(.input)
                // Wait until the main actor has read what is there, so poll does not spin.
                drained.wait()
            }
            if ready & 4 != 0 {
                // Hung up or closed: whatever was left has been drained above.
                continuation.yield(.hangup)
                return
            }
        }
    }
}
