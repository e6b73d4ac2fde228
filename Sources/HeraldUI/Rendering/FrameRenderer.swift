/// Something a frame's changed cells can be drawn on: the ncurses terminal or a headless grid.
@MainActor
public protocol FrameSurface: AnyObject {
    /// The surface's size in cells.
    var size: Size { get }
    /// Draws changed cells and shows them (one `doupdate()` on a terminal). `clear` asks the
    /// surface to forget what it showed before (first frame, resize).
    func present(_ changes: [CellChange], clear: Bool)
}

/// The render loop's last stage: diffs each frame against the previous one and hands only
/// the changed cells to the surface. Asking for many frames before one is drawn draws one.
@MainActor
public final class FrameRenderer {
    public let surface: any FrameSurface
    private var previous: Canvas?
    private var scheduled = false
    /// Frames drawn so far (for tests of coalescing).
    public private(set) var framesDrawn = 0

    public init(surface: any FrameSurface) {
        self.surface = surface
    }

    /// Forgets the last frame, so the next one is drawn whole (after a resize).
    public func invalidate() { previous = nil }

    /// Draws the frame now.
    public func draw(_ canvas: Canvas) {
        scheduled = false
        let clear = previous == nil || previous?.size != canvas.size
        let changes = canvas.changes(since: clear ? nil : previous)
        if !changes.isEmpty || clear {
            surface.present(changes, clear: clear)
        }
        previous = canvas
        framesDrawn += 1
    }

    /// Asks for a frame built by `frame` once the main actor is free: however many times
    /// this is called before then, one frame is drawn, from the state at that time.
    public func setNeedsFrame(_ frame: @escaping @MainActor () -> Canvas) {
        guard !scheduled else { return }
        scheduled = true
        Task { @MainActor [weak self] in
            guard let self, self.scheduled else { return }
            self.draw(frame())
        }
    }

    /// The last frame drawn.
    public var lastFrame: Canvas? { previous }
}

/// A surface with no terminal: keeps the cells it is given, through the same diff path.
@MainActor
public final class HeadlessSurface: FrameSurface {
    public private(set) var size: Size
    public private(set) var screen: Canvas

    public init(size: Size) {
        self.size = size
        self.screen = Canvas(size: size)
    }

    public func resize(to size: Size) {
        self.size = size
        screen = Canvas(size: size)
    }

    public func present(_ changes: [CellChange], clear: Bool) {
        if clear { screen = Canvas(size: size) }
        screen.apply(changes)
    }
}
