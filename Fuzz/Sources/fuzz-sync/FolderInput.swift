import Foundation
import HeraldSync

/// A fuzz input read as the files of a sync folder. Entries start with byte 0x01:
/// `0x01 KIND DEVICE NAME \n CONTENT`. KIND (mod 6): a file, a file whose records' checksums
/// are made right (so the fuzzer reaches the fields and the merge, not only the checksum),
/// a symbolic link to a file outside, one to /dev/zero, a FIFO, a folder. DEVICE (mod 4):
/// one of three other devices, or a name of the input's own in the sync folder itself. NAME:
/// the file's name (`/` and NUL replaced, at most 80 bytes; empty: `ops-000001.log`).
struct FolderInput {
    struct File {
        var kind: Int
        var device: Int
        var name: String
        var bytes: [UInt8]
    }

    var files: [File] = []

    init(_ input: UnsafeRawBufferPointer) {
        for entry in input.split(separator: 1, omittingEmptySubsequences: true) {
            let bytes = Array(entry)
            guard bytes.count >= 2 else { continue }
            let rest = bytes[2...]
            let newline = rest.firstIndex(of: 10) ?? rest.endIndex
            var name = String(decoding: rest[..<newline].prefix(80), as: UTF8.self)
            name = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
            if name.isEmpty || name == "." || name == ".." { name = "ops-000001.log" }
            let content = newline < rest.endIndex ? Array(rest[(newline + 1)...]) : []
            files.append(File(kind: Int(bytes[0]) % 6, device: Int(bytes[1]) % 4, name: name, bytes: content))
        }
    }

    /// Writes the folder at `folder`, the devices' ids new for `run`.
    func write(to folder: URL, run: Int, sentinel: String) {
        let manager = FileManager.default
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            var directory = folder
            if file.device < 3 {
                let high = String(run, radix: 16)
                let id = String(repeating: "0", count: 16 - high.count) + high + "00000000000000" + "a\(file.device)"
                directory = folder.appendingPathComponent(id)
                try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            let path = directory.appendingPathComponent(file.name).path
            switch file.kind {
            case 0: _ = manager.createFile(atPath: path, contents: Data(file.bytes))
            case 1: _ = manager.createFile(atPath: path, contents: Data(Self.checksummed(file.bytes)))
            case 2: try? manager.createSymbolicLink(atPath: path, withDestinationPath: sentinel)
            case 3: try? manager.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            case 4: _ = mkfifo(path, 0o644)
            default: try? manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
        }
    }

    /// The lines with a checksum's place (eight bytes, a space) given the right checksum.
    static func checksummed(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
            var line = Array(line)
            if line.count > 9, line[8] == 32 {
                let hex = Array(String(crc32(line[9...]), radix: 16).utf8)
                let digits = [UInt8](repeating: 48, count: 8 - hex.count) + hex
                line.replaceSubrange(0..<8, with: digits)
            }
            out += line
            out.append(10)
        }
        if bytes.last != 10 { out.removeLast() }
        return out
    }

    /// CRC-32 as zlib computes it (bit by bit: inputs are small).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
