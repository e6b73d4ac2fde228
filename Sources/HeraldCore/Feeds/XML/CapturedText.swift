/// The character data of the element being captured (as UTF-8), and the running total of
/// character data in the document.
///
/// One value, so that a SAX `characters` event (libxml2 sends one per text run, per CDATA
/// block and per predefined entity such as `&lt;`: hundreds of thousands in a big feed of
/// escaped HTML) costs the builder a single access to its state.
struct CapturedText {
    /// What becomes of arriving character data.
    enum Mode {
        /// Counted only: no element is being captured, or the parse has stopped.
        case skip
        /// Kept as is (text and HTML bodies).
        case keep
        /// Kept with `&`, `<` and `>` escaped (Atom XHTML being serialised back to HTML).
        case escape
    }

    var mode = Mode.skip
    var bytes: [UInt8] = []
    /// Character data seen in the document so far.
    private(set) var total = 0
    /// Set when the parse stops: nothing more is counted or kept.
    var isStopped = false
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        bytes.reserveCapacity(4096)
    }

    /// Takes a run of character data; false when it takes the document past `limit`.
    mutating func take(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !isStopped else { return true }
        total += buffer.count
        guard total <= limit else { return false }
        switch mode {
        case .skip: break
        case .keep:
            // Single bytes are common: every predefined entity arrives on its own.
            if buffer.count == 1 { bytes.append(buffer[0]) } else { bytes.append(contentsOf: buffer) }
        case .escape: appendEscaped(buffer)
        }
        return true
    }

    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    /// True when nothing but ASCII white space has been kept.
    var isBlank: Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
    }
}
