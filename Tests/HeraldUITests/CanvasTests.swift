import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("Canvas")
struct CanvasTests {
    func row(_ canvas: Canvas, _ y: Int = 0) -> [Cell] {
        (0..<canvas.size.width).map { canvas[$0, y] }
    }

    @Test("Korean text takes two cells per syllable, the second a continuation")
    func koreanCells() {
        var canvas = Canvas(size: Size(width: 6, height: 1))
        let used = canvas.write("한글", x: 0, y: 0)
        #expect(used == 4)
        #expect(row(canvas).map(\.width) == [2, 0, 2, 0, 1, 1])
        #expect(canvas.text() == "한글  ")
    }

    @Test("Japanese and emoji sequences are laid out per grapheme", arguments: [
        ("日本", 4), ("❤️", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇰🇷", 2), ("e\u{301}", 1),
    ])
    func graphemeWidths(_ text: String, _ width: Int) {
        var canvas = Canvas(size: Size(width: 10, height: 1))
        #expect(canvas.write(text, x: 0, y: 0) == width)
        #expect(canvas.text().hasPrefix(text))
    }

    @Test("a combining mark stays with its base in one cell")
    func combiningInOneCell() {
        var canvas = Canvas(size: Size(width: 3, height: 1))
        canvas.write("e\u{301}x", x: 0, y: 0)
        #expect(canvas[0, 0].grapheme == "e\u{301}")
        #expect(canvas[1, 0].grapheme == "x")
    }

    @Test("a wide grapheme that would straddle the right edge becomes a space")
    func wideClipsAtEdge() {
        var canvas = Canvas(size: Size(width: 5, height: 1))
        canvas.write("ab한글", x: 0, y: 0)
        #expect(canvas.text() == "ab한 ")
        #expect(row(canvas).map(\.width) == [1, 1, 2, 0, 1])
    }

    @Test("a wide grapheme that would cross maxWidth becomes a space")
    func wideClipsAtMaxWidth() {
        var canvas = Canvas(size: Size(width: 8, height: 1))
        canvas.write("한글", x: 1, y: 0, maxWidth: 3)
        #expect(canvas.text() == " 한     ")
    }

    @Test("text starting past the edge or below the last row draws nothing")
    func outside() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        #expect(canvas.write("x", x: 4, y: 0) == 0)
        #expect(canvas.write("x", x: 0, y: 1) == 0)
        #expect(canvas == Canvas(size: Size(width: 4, height: 1)))
    }

    @Test("overwriting half of a wide grapheme blanks its other half")
    func overwriteHalf() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.write("한글", x: 0, y: 0)
        canvas.write("x", x: 1, y: 0)  // the right half of 한
        #expect(canvas.text() == " x글")
        canvas.write("y", x: 2, y: 0)  // the left half of 글
        #expect(canvas.text() == " xy ")
        #expect(row(canvas).allSatisfy { $0.width == 1 })
    }

    @Test("escape sequences in a title never reach a cell", arguments: [
        "\u{1b}]0;pwned\u{7}Title", "\u{1b}[2JTitle", "\u{9b}2JTitle", "Ti\u{7f}tle\u{0}",
    ])
    func escapesAreDropped(_ hostile: String) {
        var canvas = Canvas(size: Size(width: 20, height: 1))
        canvas.write(hostile, x: 0, y: 0)
        let scalars = canvas.cells.flatMap { Array(String($0.grapheme).unicodeScalars) }
        #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(canvas.text().hasPrefix("Title") || canvas.text().hasPrefix("Ti"), "the whole sequence goes")
    }

    @Test("bidi overrides and isolates never reach a cell")
    func bidiDropped() {
        var canvas = Canvas(size: Size(width: 20, height: 1))
        canvas.write("abc\u{202E}exe.txt\u{2066}x\u{2069}", x: 0, y: 0)
        #expect(canvas.text().hasPrefix("abcexe.txtx "))
    }

    @Test("tabs expand to the next stop of eight columns")
    func tabs() {
        var canvas = Canvas(size: Size(width: 12, height: 1))
        canvas.write("ab\tc", x: 0, y: 0)
        #expect(canvas.text() == "ab      c   ")
    }
}

@Suite("Canvas diff")
struct CanvasDiffTests {
    @Test("an unchanged frame yields no changes")
    func noChanges() {
        var canvas = Canvas(size: Size(width: 10, height: 3))
        canvas.write("hello", x: 0, y: 1)
        #expect(canvas.changes(since: canvas).isEmpty)
    }

    @Test("only the changed cells are yielded")
    func changedCells() {
        var before = Canvas(size: Size(width: 10, height: 3))
        before.write(">", x: 0, y: 0)
        var after = Canvas(size: Size(width: 10, height: 3))
        after.write(">", x: 0, y: 1)
        let changes = after.changes(since: before)
        #expect(changes.map { [$0.x, $0.y] } == [[0, 0], [0, 1]])
    }

    @Test("a wide grapheme is one change and its continuation none")
    func wideIsOneChange() {
        let before = Canvas(size: Size(width: 4, height: 1))
        var after = before
        after.write("한", x: 1, y: 0)
        let changes = after.changes(since: before)
        #expect(changes.count == 1)
        #expect(changes[0].x == 1 && changes[0].cell.width == 2)
    }

    @Test("a wide grapheme replaced by narrow ones changes both columns")
    func wideToNarrow() {
        var before = Canvas(size: Size(width: 4, height: 1))
        before.write("한", x: 0, y: 0)
        var after = Canvas(size: Size(width: 4, height: 1))
        after.write("ab", x: 0, y: 0)
        #expect(after.changes(since: before).map(\.x) == [0, 1])
    }

    @Test("a style change alone is a change")
    func styleChange() {
        var before = Canvas(size: Size(width: 3, height: 1))
        before.write("a", x: 0, y: 0)
        var after = Canvas(size: Size(width: 3, height: 1))
        after.write("a", x: 0, y: 0, style: Style(bold: true))
        #expect(after.changes(since: before).count == 1)
    }

    @Test("applying the diff to the old frame gives the new frame", arguments: [0, 1, 2, 3])
    func applyRoundTrips(_ seed: Int) {
        let texts = ["한글 abc", "👍🏽x日本", "abc def", "e\u{301}한👨‍👩‍👧"]
        var before = Canvas(size: Size(width: 9, height: 2))
        before.write(texts[seed], x: seed % 2, y: 0)
        before.write(texts[(seed + 1) % 4], x: 0, y: 1)
        var after = Canvas(size: Size(width: 9, height: 2))
        after.write(texts[(seed + 2) % 4], x: 1 - seed % 2, y: 0, style: Style(bold: true))
        after.write(texts[(seed + 3) % 4], x: 0, y: 1)
        var replay = before
        replay.apply(after.changes(since: before))
        #expect(replay == after)
    }

    @Test("with no previous frame every cell but continuations is a change")
    func fullRedraw() {
        var canvas = Canvas(size: Size(width: 4, height: 2))
        canvas.write("한", x: 0, y: 0)
        #expect(canvas.changes(since: nil).count == 7)
    }
}
