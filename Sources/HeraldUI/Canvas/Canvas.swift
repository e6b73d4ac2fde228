import HeraldCore
public import HeraldConfig

/// A size in terminal cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    public var description: String { "\(width)x\(height)" }
}

/// The screen as a grid of cells: the single truth of what is shown.
///
/// Every string drawn goes through `write`, which sanitises it (no control or bidi formatting
/// character reaches a cell), lays it out grapheme by grapheme with `DisplayWidth`, and never
/// lets a wide grapheme straddle the clip edge (it becomes a space instead).
public struct Canvas: Sendable, Hashable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill, count: size.width * size.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    /// Fills a rectangle of rows with blank cells in a style.
    public mutating func fill(row y: Int, from x: Int = 0, width: Int? = nil, style: Style) {
        guard y >= 0, y < size.height else { return }
        let end = min(size.width, x + (width ?? size.width))
        var column = max(x, 0)
        while column < end {
            put(Cell(" ", style: style), x: column, y: y)
            column += 1
        }
    }

    /// Changes the style of every cell of a row (the selection bar), keeping the text.
    public mutating func restyle(row y: Int, _ change: (Style) -> Style) {
        guard y >= 0, y < size.height else { return }
        for index in (y * size.width)..<((y + 1) * size.width) {
            cells[index].style = change(cells[index].style)
        }
    }

    /// Writes one line of text at (x, y), clipped to `maxWidth` columns (default: to the right
    /// edge). Returns the number of columns used.
    @discardableResult
    public mutating func write(
        _ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let limit = min(size.width, x + (maxWidth ?? size.width))
        var column = x
        // Whole escape sequences go first (text stored before Herald removed them whole
        // still holds them); `drawable` then drops any control left, one by one.
        for grapheme in TextSanitizer.multiLine(text) {
            if column >= limit { break }
            if grapheme == "\t" {
                // Tabs stop every 8 columns from where the text starts.
                let next = min(limit, x + ((column - x) / 8 + 1) * 8)
                while column < next {
                    put(Cell(" ", style: style), x: column, y: y)
                    column += 1
                }
                continue
            }
            guard let drawable = Self.drawable(grapheme) else { continue }
            let width = DisplayWidth.of(drawable)
            if width == 0 { continue }
            if column + width > limit {
                // A wide grapheme that would straddle the edge becomes a space.
                put(Cell(" ", style: style), x: column, y: y)
                column += 1
                break
            }
            if column >= 0 { put(Cell(drawable, width: UInt8(width), style: style), x: column, y: y) }
            column += width
        }
        return max(column - x, 0)
    }

    /// The grapheme as it may be drawn: nil when nothing of it may reach the terminal.
    static func drawable(_ grapheme: Character) -> Character? {
        let scalars = grapheme.unicodeScalars
        if !scalars.contains(where: TextSanitizer.isForbidden) { return grapheme }
        if grapheme == "\r\n" || grapheme == "\n" { return " " }
        var kept = String.UnicodeScalarView()
        for scalar in scalars where !TextSanitizer.isForbidden(scalar) { kept.append(scalar) }
        return kept.isEmpty ? nil : String(kept).first
    }

    /// Stores a cell, keeping wide graphemes whole: overwriting either half of a wide
    /// grapheme blanks the other half.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, x < size.width, y >= 0, y < size.height else { return }
        let row = y * size.width
        let old = cells[row + x]
        if old.isContinuation, x > 0 {
            cells[row + x - 1] = Cell(" ", style: cells[row + x - 1].style)
        }
        if old.width == 2, x + 1 < size.width, cell.width != 2 {
            cells[row + x + 1] = Cell(" ", style: cells[row + x + 1].style)
        }
        cells[row + x] = cell
        if cell.width == 2 {
            if x + 1 < size.width {
                let next = cells[row + x + 1]
                if next.width == 2, x + 2 < size.width {
                    cells[row + x + 2] = Cell(" ", style: cells[row + x + 2].style)
                }
                cells[row + x + 1] = .continuation(cell.style)
            } else {
                cells[row + x] = Cell(" ", style: cell.style)
            }
        }
    }

    /// The screen as text, one row per line, continuation cells skipped; trailing spaces kept.
    public func text() -> String {
        var lines: [String] = []
        lines.reserveCapacity(size.height)
        for y in 0..<size.height {
            var line = ""
            for x in 0..<size.width where !self[x, y].isContinuation {
                line.append(self[x, y].grapheme)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
