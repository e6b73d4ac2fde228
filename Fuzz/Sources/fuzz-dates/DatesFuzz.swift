import Foundation
import FuzzSupport
import HeraldCore

/// Dates as feeds write them: RFC 3339 (a fast path on bytes, else Foundation), RFC 822 (on
/// bytes), and the XML feeds' either-way reading. A date read is from 1900 on, and reading
/// it back in its canonical form gives the same instant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDates(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let date = FeedDate.parseRFC3339(text) {
        check(date, "RFC 3339", text)
        if let civil = Civil(date) {
            let again = FeedDate.parseRFC3339(civil.rfc3339)
            Invariant.require(
                again == Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)),
                "RFC 3339 \(text.debugDescription) is \(date), but \(civil.rfc3339) is \(String(describing: again))"
            )
        }
    }
    if let date = FeedDate.parseRFC822(text) {
        check(date, "RFC 822", text)
        if let civil = Civil(date) {
            let again = FeedDate.parseRFC822(civil.rfc822)
            Invariant.require(
                again == date,
                "RFC 822 \(text.debugDescription) is \(date), but \(civil.rfc822) is \(String(describing: again))"
            )
        }
    }
    if let date = FeedDate.parseAny(text) { check(date, "either", text) }
    return 0
}

func check(_ date: Date, _ form: String, _ text: String) {
    Invariant.require(
        date >= FeedDate.earliest && date.timeIntervalSince1970.isFinite,
        "\(form) \(text.debugDescription) is \(date), before 1900")
}

/// A date's UTC calendar fields (proleptic Gregorian), for years 1900–9999.
struct Civil {
    var year, month, day, hour, minute, second: Int

    init?(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        // H. Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = inDay / 3600
        minute = inDay % 3600 / 60
        second = inDay % 60
        guard (1900...9999).contains(year) else { return nil }
    }

    var rfc3339: String {
        "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))Z"
    }

    var rfc822: String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return
            "\(pad(day)) \(months[month - 1]) \(pad(year, 4)) \(pad(hour)):\(pad(minute)):\(pad(second)) +0000"
    }

    private func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
