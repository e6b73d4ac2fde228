import CZlib
import Foundation
import HeraldCore

/// `herald-bench extract --pages DIR --out FILE [--runs R]`: the article extractor on every
/// page of a folder (`ID.html` or `ID.html.gz`), each page R times after a first run: writes
/// what it extracted as `{ID: {"articleBody": text}}` (the benchmark's format, for
/// `Scripts/extraction_score.py`), prints the median and 90th percentile of the per-page
/// medians, in milliseconds, and the peak resident memory.
enum ExtractBench {
    static func run(pages directory: String, out: String, runs: Int) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".html") || $0.hasSuffix(".html.gz") }.sorted()
        var outputs: [String: [String: String]] = [:]
        var medians: [Double] = []
        var bytes = 0
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
            let page = name.hasSuffix(".gz") ? try gunzip(data) : [UInt8](data)
            bytes += page.count
            let id = String(name.prefix(upTo: name.range(of: ".html")!.lowerBound))  // filtered on it above
            let article = ArticleExtractor.extract(html: page, url: nil)
            outputs[id] = ["articleBody": article?.text ?? ""]
            var times: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                _ = ArticleExtractor.extract(html: page, url: nil)
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            }
            medians.append(times.sorted()[times.count / 2])
        }
        guard !medians.isEmpty else { throw BenchError.noPages(directory) }
        let json = try JSONSerialization.data(withJSONObject: outputs, options: [.sortedKeys])
        try json.write(to: URL(fileURLWithPath: out))
        medians.sort()
        let median = medians[medians.count / 2]
        let p90 = medians[min(medians.count * 9 / 10, medians.count - 1)]
        print(
            String(
                format: "extract: median_ms=%.3f p90_ms=%.3f pages=%d max_ms=%.3f (%.0f KB of HTML a page on average)",
                median, p90, medians.count, medians.last ?? 0, Double(bytes) / Double(medians.count) / 1024))
        print("extract: peak resident memory \(peakResidentKB() / 1024) MB")
    }

    enum BenchError: Error { case noPages(String), damaged(String) }

    static func gunzip(_ data: Data) throws -> [UInt8] {
        var stream = z_stream()
        guard cz_inflate_init_bits(&stream, 15 + 16) == Z_OK else { throw BenchError.damaged("inflateInit") }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var input = [UInt8](data)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            var status = Z_OK
            while status == Z_OK {
                status = buffer.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    out += target[0..<(target.count - Int(stream.avail_out))]
                    return status
                }
            }
            return status
        }
        guard status == Z_STREAM_END else { throw BenchError.damaged("inflate \(status)") }
        return out
    }

    static func peakResidentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
