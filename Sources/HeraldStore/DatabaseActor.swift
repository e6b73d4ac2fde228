/// The one actor that owns the SQLite connection: every statement runs on it, one at a
/// time, and only `Sendable` values (plain structs) leave it.
@globalActor
public actor DatabaseActor {
    public static let shared = DatabaseActor()
}
