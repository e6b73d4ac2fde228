import CLibXML2

/// Lists and tables: the structures whose parts the writer lays out together (markers and
/// indents for list items, aligned columns for table rows).
extension HTMLWriter {
    mutating func list(_ node: UnsafeMutablePointer<xmlNode>, ordered: Bool, depth: Int) {
        blockBreak()
        // Clamped: a hostile start must not overflow the count.
        var number = min(max(Int(attribute(node, "start").map(Self.trimmed) ?? "") ?? 1, -999_999), 999_999_999)
        prefixes.append("  ")
        listDepth += 1
        defer { listDepth -= 1 }
        var child = node.pointee.children
        while let item = child {
            if item.pointee.type == XML_ELEMENT_NODE, item.pointee.name.map({ String(cString: $0) }) == "li" {
                blockBreak()
                let marker = ordered ? "\(number). " : "- "
                // Inside a table cell there are no blocks to mark: the item runs on in the cell.
                if inCell == 0 { itemMarker = (marker, prefixes.count - 1) }
                // What the item holds (a nested list too) lines up under its text.
                prefixes[prefixes.count - 1] = String(repeating: " ", count: marker.count)
                number += 1
                children(item, depth: depth + 1)
                blockBreak()
                // An empty item leaves its marker unused: it must not mark what follows.
                itemMarker = nil
            } else {
                visit(item, depth: depth + 1)
            }
            child = item.pointee.next
        }
        prefixes.removeLast()
        blockBreak()
    }

    /// A table row: its cells' runs, kept for the table to align (a row outside any table is
    /// written at once).
    mutating func row(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) {
        blockBreak()
        inCell += 1
        var cells: [[RichRun]] = []
        var child = node.pointee.children
        while let cell = child {
            if cell.pointee.type == XML_ELEMENT_NODE {
                closeRun()
                let start = runs.count
                let isHeader = cell.pointee.name.map { String(cString: $0) } == "th"
                styled(isHeader ? .strong : [], cell, depth: depth + 1)
                closeRun()
                cells.append(Self.trimmed(Array(runs[start...])))
                runs.removeSubrange(start...)
                pendingSpace = false
            }
            child = cell.pointee.next
        }
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
                if column < widths.count { widths[column] = max(widths[column], width) } else { widths.append(width) }
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
