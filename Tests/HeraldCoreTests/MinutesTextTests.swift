import HeraldCore
import Testing

@Suite("Minutes with units")
struct MinutesTextTests {
    @Test(
        "bare minutes and minutes, hours and days with a unit are read",
        arguments: [
            ("30", 30), ("30m", 30), ("30 min", 30), ("90MINUTES", 90), ("2h", 120), ("1 hour", 60),
            ("1d", 1_440), ("0", 0), ("365d", 525_600),
        ])
    func reads(text: String, minutes: Int) {
        #expect(MinutesText.parse(text, in: 0...525_600) == minutes)
    }

    @Test(
        "anything else is refused: other units, no number, past the range, overflow",
        arguments: ["30s", "2w", "m", "", "-5", "1.5h", "366d", "999999999d", "30 m m", "3O"])
    func refuses(text: String) {
        #expect(MinutesText.parse(text, in: 0...525_600) == nil)
    }

    @Test("the problem names the unit that is not taken")
    func namesTheUnit() {
        #expect(MinutesText.problem("30s", in: 0...10).contains("not seconds"))
        #expect(MinutesText.problem("2 weeks", in: 0...10).contains("not weeks"))
        #expect(MinutesText.problem("soon", in: 0...10).contains("30m, 2h, 1d"))
    }

    @Test("a feed's own reload-interval takes units too, stored as minutes")
    func feedSetting() throws {
        #expect(try FeedSettingKey.reloadInterval.normalize("2h").get() == "120")
        #expect(throws: FeedSettingError.self) { try FeedSettingKey.reloadInterval.normalize("10s").get() }
    }
}
