import CLibXML2

/// Lists and tables: the structures whose parts the writer lays out together (markers and
/// indents for list items, aligned columns for table rows).
extension HTMLWriter {
    mutating func startList(ordered: Bool, start: String?) {
        blockBreak()
        // Clamped: a hostile start must not overflow the count.
        let number = min(max(Int(start.map(Self.trimmed) ?? "") ?? 1, -999_999), 999_999_999)
        prefixes.append("  ")
        listDepth += 1
        frames.append(.list(ordered: ordered, number: number))
    }

    /// An `li` of the list open last.
    mutating func startItem(ordered: Bool, number: Int) {
        blockBreak()
        let marker = ordered ? "\(number). " : "- "
        // Inside a table cell there are no blocks to mark: the item runs on in the cell.
        if inCell == 0 { itemMarker = (marker, prefixes.count - 1) }
        // What the item holds (a nested list too) lines up under its text.
        prefixes[prefixes.count - 1] = String(repeating: " ", count: marker.count)
        frames[frames.count - 1] = .list(ordered: ordered, number: number + 1)
        frames.append(.item)
    }

    mutating func endList() {
        prefixes.removeLast()
        blockBreak()
        listDepth -= 1
    }

    /// A table row: its cells' runs are kept for the table to align (a row outside any
    /// table is written at once). Each element in a row is a cell, a `th` in bold.
    mutating func startRow() {
        blockBreak()
        inCell += 1
        frames.append(.row(cells: []))
    }

    mutating func startCell(header: Bool) {
        closeRun()
        frames.append(.cell(start: runs.count, saved: style))
        if header { style.formUnion(.strong) }
    }

    mutating func endCell(start: Int, saved: InlineStyle) {
        style = saved
        closeRun()
        let cell = Self.trimmed(Array(runs[start...]))
        runs.removeSubrange(start...)
        pendingSpace = false
        guard case .row(var cells) = frames.last else { return }
        frames[frames.count - 1] = .plain  // so that `cells` is not copied to grow
        cells.append(cell)
        frames[frames.count - 1] = .row(cells: cells)
    }

    mutating func endRow(_ cells: [[RichRun]]) {
        inCell -= 1
        if tables.isEmpty {
            table([cells])
        } else {
            tables[tables.count - 1].append(cells)
        }
    }

    /// Writes a table's rows, one block each, cells padded so the columns line up (up to a
    /// column width of 30: wider cells push the rest of their row along).
    mutating func table(_ rows: [[[RichRun]]]) {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                let width = min(cell.reduce(0) { $0 + DisplayWidth.of($1.text) }, 30)
                if column < widths.count {
                    widths[column] = max(widths[column], width)
                } else {
                    widths.append(width)
                }
            }
        }
        closeRun()
        var wroteRow = false
        for row in rows where !row.allSatisfy(\.isEmpty) {
            // Inside a cell, a table's rows run on in the cell's text.
            if inCell > 0, !blockIsEmpty, !endsInSpace { runs.append(RichRun(" ")) }
            for (column, cell) in row.enumerated() {
                runs += cell
                guard column < row.count - 1 else { break }
                let width = cell.reduce(0) { $0 + DisplayWidth.of($1.text) }
                runs.append(RichRun(String(repeating: " ", count: max(widths[column] - width, 0)) + " | "))
            }
            blockBreak()
            if wroteRow, inCell == 0, !blocks.isEmpty { blocks[blocks.count - 1].tight = true }
            wroteRow = true
        }
    }
}
