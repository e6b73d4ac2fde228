public import Foundation

/// A hybrid logical clock (Kulkarni et al., 2014): stamps that follow physical time when the
/// clocks agree, never go backwards, and are greater than every stamp seen from another
/// device, so a change made after seeing another's always wins over it.
///
/// A stamp packs physical milliseconds and a logical counter into one integer,
/// `ms << 16 | counter`, so stamps compare as integers. The standard rules then read:
/// a local event takes `max(latest + 1, now << 16)` (same millisecond: counter + 1; a later
/// one: counter 0); receiving a stamp takes `max(latest, received)`, so the next local
/// event is above it. The device id breaks ties between equal stamps (`SyncOperation`).
public struct HybridClock: Sendable, Hashable {
    /// Bits of the logical counter.
    public static let counterBits: Int64 = 16

    /// The greatest stamp made or seen.
    public private(set) var latest: Int64

    public init(latest: Int64 = 0) { self.latest = latest }

    /// A stamp for a local event at physical time `now` (unix milliseconds).
    public mutating func stamp(now: Int64) -> Int64 {
        latest = max(latest + 1, now << Self.counterBits)
        return latest
    }

    /// Takes in a stamp from another device, made at most `window` after `now` (unix
    /// milliseconds): a stamp further ahead (a wrong clock, or a forged record) moves this
    /// clock only that far. Another device's stamp of 2^46 - 1 ms would otherwise make every
    /// later stamp of this one too large for any reader, and its changes never arrive.
    public mutating func observe(_ stamp: Int64, now: Int64, window: Int64 = HybridClock.window) {
        latest = max(latest, min(stamp, Self.ceiling(now: now, window: window)))
    }

    /// How far ahead of this device's clock another device's may be taken: a day.
    public static let window: Int64 = 86_400_000

    /// The greatest stamp this clock takes in at `now`.
    public static func ceiling(now: Int64, window: Int64 = HybridClock.window) -> Int64 {
        let milliseconds = min(max(now, 0) + window, (1 << 46) - 1)
        return milliseconds << counterBits | ((1 << counterBits) - 1)
    }

    /// A saved clock, taken only up to the ceiling at `now` (one saved before the ceiling
    /// existed may hold a poisoned stamp).
    public init(saved: Int64, now: Int64) {
        self.latest = min(max(saved, 0), Self.ceiling(now: now))
    }

    /// The physical milliseconds of a stamp.
    public static func milliseconds(_ stamp: Int64) -> Int64 { stamp >> counterBits }

    /// The logical counter of a stamp.
    public static func counter(_ stamp: Int64) -> Int64 { stamp & ((1 << counterBits) - 1) }

    /// The time of a stamp.
    public static func date(_ stamp: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(stamp)) / 1000)
    }

    /// Unix milliseconds now.
    public static func wallClock() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
