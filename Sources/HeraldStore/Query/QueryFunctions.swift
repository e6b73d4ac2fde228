import CSQLite3
import HeraldCore

/// The SQL functions a compiled `ArticleQuery` calls, registered on every connection:
///
/// - `herald_contains(text, needle)`: 1 when `text` contains `needle` (already lowercased)
///   ignoring case, as `QueryPattern.contains` decides in memory; 0 for NULL.
/// - `regexp(pattern, text)`, which SQLite's `text REGEXP pattern` calls: ICU syntax,
///   case-insensitive, each pattern compiled once (`QueryRegex`); 0 for NULL. A pattern too
///   slow for the run under way (`RegexBudget.current`, bound by the caller's task: this
///   function runs on its thread, inside `sqlite3_step`) is an error that stops the
///   statement, undoing what it wrote: a `NOT` cannot turn a pattern that was stopped into
///   rows that match. `RegexBudget.scoped` turns the error into `SlowRegexError`.
///
/// Both return 0 or 1, never NULL, so `NOT` of them means what it says.
enum QueryFunctions {
    static func register(on handle: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(
            handle, "herald_contains", 2, flags, nil,
            { context, _, arguments in
                guard let arguments, let haystack = arguments[0], let needle = arguments[1] else { return }
                sqlite3_result_int(context, QueryFunctions.contains(haystack, needle) ? 1 : 0)
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            handle, "regexp", 2, flags, nil,
            { context, _, arguments in
                guard let arguments, let pattern = arguments[0], let text = arguments[1],
                    let patternText = QueryFunctions.string(pattern), let value = QueryFunctions.string(text)
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                do {
                    sqlite3_result_int(context, try QueryRegex.matches(patternText, value) ? 1 : 0)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil, nil)
    }

    static func string(_ value: OpaquePointer) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
            return nil
        }
        return String(cString: text)
    }

    /// Case-insensitive containment; ASCII text (most titles) is searched byte by byte
    /// without making a Swift string of every row.
    static func contains(_ haystack: OpaquePointer, _ needle: OpaquePointer) -> Bool {
        guard sqlite3_value_type(haystack) != SQLITE_NULL, let text = sqlite3_value_text(haystack),
            let wanted = sqlite3_value_text(needle)
        else { return false }
        let count = Int(sqlite3_value_bytes(haystack))
        let needleCount = Int(sqlite3_value_bytes(needle))
        let bytes = UnsafeBufferPointer(start: text, count: count)
        let pattern = UnsafeBufferPointer(start: wanted, count: needleCount)
        guard bytes.allSatisfy({ $0 < 0x80 }), pattern.allSatisfy({ $0 < 0x80 }) else {
            return QueryPattern.contains(String(cString: text), String(cString: wanted))
        }
        if needleCount == 0 { return true }
        guard needleCount <= count else { return false }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        for start in 0...(count - needleCount) {
            var offset = 0
            while offset < needleCount, lower(bytes[start + offset]) == pattern[offset] { offset += 1 }
            if offset == needleCount { return true }
        }
        return false
    }
}
