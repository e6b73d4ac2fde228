/// A gate a test repository waits at until the test opens it (to see loading states and
/// answers that come late). Closed at first.
actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    func close() { isOpen = false }

    /// Returns at once when open, else when the gate opens.
    func pass() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
