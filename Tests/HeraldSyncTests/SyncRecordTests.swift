import Foundation
import Testing

@testable import HeraldStore
@testable import HeraldSync

@Suite("Sync records and files")
struct SyncRecordTests {
    static func decode(_ line: String) -> Result<SyncRecord.Line, SyncRecord.Problem> {
        var bytes = Array(line.utf8)
        if bytes.last == 10 { bytes.removeLast() }
        return bytes.withUnsafeBytes { SyncRecord.decode($0) }
    }

    @Test("a record survives encoding with tabs, newlines and percent signs in its fields")
    func roundTrip() throws {
        let change = SyncChange(
            kind: .read, feedURL: "https://x.example/a%20b\tc", guid: "line\none\r%0A", value: "1")
        let stamp: Int64 = 1_796_000_000_123 << 16 | 42
        let line = SyncRecord.encode(stamp: stamp, change: change)
        #expect(line.hasSuffix("\n") && line.dropLast().contains("\n") == false)
        #expect(Self.decode(line) == .success(.operation(stamp: stamp, change: change)))
        #expect(
            Self.decode(
                SyncRecord.encode(stamp: stamp, change: SyncChange(kind: .tags, feedURL: "u", value: "a\tb")))
                == .success(
                    .operation(stamp: stamp, change: SyncChange(kind: .tags, feedURL: "u", value: "a\tb"))))
    }

    @Test("a read, star or sub record whose value is not 1 or 0 is malformed, not a 0")
    func flagValues() {
        for kind in [SyncChange.Kind.read, .star, .sub] {
            for value in ["maybe", "", "01", "2", "true", " 1"] {
                let line = SyncRecord.encode(
                    stamp: 1 << 16,
                    change: SyncChange(kind: kind, feedURL: "https://f", guid: "g", value: value))
                #expect(
                    Self.decode(line) == .failure(.malformed("bad value for \(kind.rawValue): '\(value)'")),
                    "\(kind) \(value)")
            }
            for value in ["0", "1"] {
                let change = SyncChange(kind: kind, feedURL: "https://f", guid: "g", value: value)
                #expect(
                    Self.decode(SyncRecord.encode(stamp: 1 << 16, change: change))
                        == .success(.operation(stamp: 1 << 16, change: change)))
            }
        }
    }

    @Test("a changed byte fails the checksum; a line that is not a record is malformed")
    func checksum() {
        let line = SyncRecord.encode(
            stamp: 1 << 16, change: SyncChange(kind: .star, feedURL: "https://f", guid: "g", value: "1"))
        var bytes = Array(line.utf8)
        bytes[bytes.count - 3] ^= 1
        #expect(Self.decode(String(decoding: bytes, as: UTF8.self)) == .failure(.checksum))
        #expect(
            Self.decode(line.replacingOccurrences(of: "\tstar\t", with: "\tstarred\t")) == .failure(.checksum)
        )
        if case .failure(.malformed) = Self.decode("hello world") {} else { Issue.record("not malformed") }
    }

    @Test("a final record cut short is left for later, then read whole")
    func truncatedRecord() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let lines = (0..<3).map {
            SyncRecord.encode(
                stamp: Int64($0 + 1) << 16,
                change: SyncChange(kind: .read, feedURL: "https://f", guid: "g\($0)", value: "1"))
        }
        let whole = Array((SyncRecord.header + lines.joined()).utf8)
        let path = scratch.url.appendingPathComponent("ops-000001.log").path
        let cut = whole.count - 10
        try Data(whole.prefix(cut)).write(to: URL(fileURLWithPath: path))
        var reader = SyncFileReader()
        var guids: [String] = []
        let first = try reader.read(path, from: 0) { operations, _ in guids += operations.map(\.1.guid) }
        let secondStart = whole.count - lines[2].utf8.count
        #expect(first == .read(end: secondStart, truncated: true, ended: false))
        #expect(guids == ["g0", "g1"])
        try Data(whole).write(to: URL(fileURLWithPath: path))
        let second = try reader.read(path, from: secondStart) { operations, _ in
            guids += operations.map(\.1.guid)
        }
        #expect(second == .read(end: whole.count, truncated: false, ended: false))
        #expect(guids == ["g0", "g1", "g2"])
        #expect(reader.problems.isEmpty)
    }

    @Test("a corrupt record is reported once per file with its byte offset, skipped, and the next is read")
    func corruptRecord() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let lines = (0..<3).map {
            SyncRecord.encode(
                stamp: Int64($0 + 1) << 16,
                change: SyncChange(kind: .read, feedURL: "https://f", guid: "g\($0)", value: "1"))
        }
        var bytes = Array((SyncRecord.header + lines.joined()).utf8)
        let offset = SyncRecord.header.utf8.count + lines[0].utf8.count
        bytes[offset + 20] ^= 0x20
        let folder = try scratch.folder("0123456789abcdef0123456789abcdef")
        let path = folder.appendingPathComponent("ops-000001.log").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = SyncFileReader()
        reader.chunkSize = 7  // records across chunk boundaries too
        var guids: [String] = []
        let outcome = try reader.read(path, from: 0) { operations, _ in guids += operations.map(\.1.guid) }
        #expect(outcome == .read(end: bytes.count, truncated: false, ended: false))
        #expect(guids == ["g0", "g2"])
        #expect(
            reader.problems == [
                "0123456789abcdef0123456789abcdef/ops-000001.log: a corrupt record skipped (the first at byte \(offset): checksum mismatch)"
            ])
    }

    @Test("a file of a newer format version is skipped, not misread")
    func newerVersion() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let path = scratch.url.appendingPathComponent("ops-000001.log").path
        let line = SyncRecord.encode(
            stamp: 1 << 16, change: SyncChange(kind: .read, feedURL: "https://f", guid: "g", value: "1"))
        try Data(("herald-sync 2 with more\n" + line).utf8).write(to: URL(fileURLWithPath: path))
        var reader = SyncFileReader()
        var read = 0
        #expect(
            try reader.read(path, from: 0) { operations, _ in read += operations.count } == .newerVersion(2))
        #expect(read == 0)
        try Data("not a sync file at all\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try reader.read(path, from: 0) { _, _ in } == .notSyncFile)
    }
}
