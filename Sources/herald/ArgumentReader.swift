/// Walks a command's arguments: flags, options with a value, and the rest.
struct ArgumentReader {
    private let arguments: [String]
    private var index = 0

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, or nil at the end.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value of the option just read (`--feed URL`).
    mutating func value(of option: String) throws -> String {
        guard let value = next() else { throw UsageError("\(option) needs a value") }
        return value
    }

    /// The positive number given to the option just read (`--limit 20`).
    mutating func positiveNumber(of option: String) throws -> Int {
        guard let text = next(), let number = Int(text), number > 0 else {
            throw UsageError("\(option) needs a positive number")
        }
        return number
    }
}
