import FuzzSupport
import HeraldCore

/// Width, sanitising, truncation and wrapping of any text. The first byte picks the width
/// (-2…127), the second the shape of a rich block; the rest is the text, which also gives the
/// block its lead and indent (pieces before U+0000 separators).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextLayout(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard bytes.count >= 2 else { return 0 }
    let width = Int(bytes[0]) % 130 - 2
    let shape = bytes[1]
    let text = String(decoding: bytes.dropFirst(2), as: UTF8.self)

    var total = 0
    for grapheme in text {
        let columns = DisplayWidth.of(grapheme)
        Invariant.require((0...2).contains(columns), "\(grapheme.debugDescription) takes \(columns) columns")
        total += columns
    }
    Invariant.require(total == DisplayWidth.of(text), "the width of a text is not the sum of its graphemes'")

    let line = TextSanitizer.singleLine(text)
    Invariant.oneLine(line, "singleLine")
    Invariant.require(
        TextSanitizer.singleLine(line) == line, "singleLine is not idempotent: \(line.debugDescription)")
    let body = TextSanitizer.multiLine(text)
    Invariant.body(body, "multiLine")
    Invariant.require(
        TextSanitizer.multiLine(body) == body, "multiLine is not idempotent: \(body.debugDescription)")

    for marker in ["…", ""] {
        let cut = TextLayout.truncate(text, toWidth: width, marker: marker)
        let used = DisplayWidth.of(cut)
        Invariant.require(
            used <= max(width, 0), "truncate to \(width) gave \(used) columns: \(cut.debugDescription)")
        if width > 0, total <= width { Invariant.require(cut == text, "truncate cut a text that fits") }
    }

    Invariant.fits(TextLayout.wrap(text, width: width), width: width, "wrap")

    let pieces = text.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).map(
        String.init)
    let kinds: [RichBlock.Kind] = [.paragraph, .heading(level: 2), .preformatted, .rule]
    let style = InlineStyle(rawValue: shape >> 3)
    var block = RichBlock(
        kind: kinds[Int(shape % 4)], lead: pieces.count > 2 ? pieces[0] : "",
        indent: pieces.count > 2 ? pieces[1] : "", quoted: shape & 4 != 0,
        runs: [RichRun(pieces.last ?? "", style), RichRun(text, [])])
    var rich = RichText(blocks: [block], links: shape & 8 != 0 ? [String(text.prefix(40))] : [])
    block.tight = true
    rich.blocks.append(block)
    let laidOut = RichLayout.anchoredLines(rich, width: width)
    Invariant.fits(laidOut.map(\.line), width: width, "rich layout")
    for (previous, next) in zip(laidOut, laidOut.dropFirst()) {
        Invariant.require(
            previous.anchor <= next.anchor, "anchors go back: \(previous.anchor) then \(next.anchor)")
    }
    return 0
}
