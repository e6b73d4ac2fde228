import Foundation
import HeraldCore

/// XML feed parser throughput: synthetic RSS 2.0 and Atom 1.0 feeds of about `megabytes` MB
/// each (and an RSS feed of many short, entity-escaped items), parsed `runs` times, median and best MB/s (MB = 10^6 bytes) for the SAX parse alone
/// (`processingHTML: false`, the figure the target is about) and with HTML bodies turned into
/// text (for information).
enum ParseBench {
    static func run(megabytes: Int, runs: Int) {
        let size = megabytes * 1_000_000
        let feeds: [(name: String, data: Data)] = [
            ("RSS 2.0", SyntheticFeed.rss(bytes: size)),
            ("Atom 1.0", SyntheticFeed.atom(bytes: size)),
            ("RSS short", SyntheticFeed.rss(bytes: size, seed: 9, short: true)),
        ]
        print("XML feed parse throughput, MB/s (MB = 10^6 bytes), \(runs) runs per figure")
        print("format      size MB   items   XML parse median   best   with HTML to text median   best")
        for (name, data) in feeds {
            let items = parsedItems(data, processingHTML: false)
            let plain = throughput(data, processingHTML: false, runs: runs)
            let html = throughput(data, processingHTML: true, runs: runs)
            let padded = name.padding(toLength: 10, withPad: " ", startingAt: 0)
            print(
                String(
                    format: "%@ %9.2f %7d %18.1f %6.1f %26.1f %6.1f", padded, Double(data.count) / 1e6, items,
                    plain.median, plain.best, html.median, html.best))
        }
    }

    static func parsedItems(_ data: Data, processingHTML: Bool) -> Int {
        do {
            return try XMLFeedParser.parse(data, processingHTML: processingHTML).items.count
        } catch {
            fail("the synthetic feed does not parse: \(error)")
        }
    }

    /// Median and best MB/s over `runs` parses (after one untimed warm-up parse).
    static func throughput(_ data: Data, processingHTML: Bool, runs: Int) -> (median: Double, best: Double) {
        _ = parsedItems(data, processingHTML: processingHTML)
        var rates: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            let count = parsedItems(data, processingHTML: processingHTML)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            precondition(count > 0)
            rates.append(Double(data.count) / 1e6 / seconds)
        }
        rates.sort()
        return (rates[rates.count / 2], rates[rates.count - 1])
    }
}
