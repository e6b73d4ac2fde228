import Foundation

/// The user's home, as the shell has it: `$HOME`, else the password database's.
public enum HomeFolder {
    public static var path: String {
        ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// `~` and `~/…` from the home; any other path as it is.
    public static func expanding(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return Self.path + path.dropFirst()
    }
}
