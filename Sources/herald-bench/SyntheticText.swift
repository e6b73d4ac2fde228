import Foundation

/// A small deterministic generator (SplitMix64), so every run builds the same library.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Synthetic article text in English, Indonesian, Korean and Japanese.
enum SyntheticText {
    enum Language: CaseIterable { case english, indonesian, korean, japanese }

    static let english = """
        garden river mountain harbour evening morning weather market station library window \
        village coffee bread winter summer autumn spring forest island bridge street letter \
        journey machine silver golden quiet bright ancient modern careful sudden gentle \
        terminal keyboard reader feed article search database network signal memory \
        walked found opened carried watched noticed remembered wrote built measured crossed \
        the a of and in on with from under over near after before while because although \
        birds tides clouds lanterns engines students farmers sailors painters musicians
        """.split(separator: " ").map(String.init)

    static let indonesian = """
        pasar sungai gunung pelabuhan pagi malam cuaca stasiun perpustakaan jendela desa \
        kopi roti hujan kemarau hutan pulau jembatan jalan surat perjalanan mesin tenang \
        terang kuno modern hati-hati tiba-tiba lembut membaca menulis berjalan menemukan \
        membuka membawa melihat mengingat membangun mengukur menyeberang yang dan di ke dari \
        dengan untuk pada karena meskipun burung awan nelayan petani pelajar pelukis musisi
        """.split(separator: " ").map(String.init)

    static let korean = """
        바다 도시 산 강 항구 아침 저녁 날씨 시장 역 도서관 창문 마을 커피 빵 겨울 여름 \
        가을 봄 숲 섬 다리 거리 편지 여행 기계 조용한 밝은 오래된 새로운 조심스러운 \
        터미널 키보드 독자 검색 데이터베이스 네트워크 기억 걸었다 찾았다 열었다 보았다 \
        기억했다 썼다 만들었다 건넜다 그리고 그러나 때문에 동안 새들 구름 학생들 어부들
        """.split(separator: " ").map(String.init)

    static let japanese = """
        東京 大阪 電車 駅 川 山 海 港 朝 夜 天気 市場 図書館 窓 村 珈琲 冬 夏 秋 春 森 島 \
        橋 道 手紙 旅 機械 静か 明るい 古い 新しい 端末 鍵盤 読者 検索 記録 鳥 雲 学生 \
        漁師 歩いた 見つけた 開けた 見た 覚えた 書いた 作った 渡った
        """.split(separator: " ").map(String.init)

    static let particlesJA = ["は", "が", "を", "に", "で", "と", "の", "から", "まで"]

    /// The real words first (the most frequent), then 30,000 made-up ones, so that word
    /// frequencies fall off as in real text (a few common words, a long tail of rare ones).
    static func words(_ language: Language) -> [String] {
        switch language {
        case .english: vocabularies.english
        case .indonesian: vocabularies.indonesian
        case .korean: vocabularies.korean
        case .japanese: vocabularies.japanese
        }
    }

    struct Vocabularies: Sendable {
        var english: [String]
        var indonesian: [String]
        var korean: [String]
        var japanese: [String]
    }

    static let vocabularies: Vocabularies = {
        let latin = ["ka", "ri", "to", "men", "sa", "lo", "ve", "dan", "bi", "ru", "te", "mo", "nis", "pa", "ghe", "lu", "cor", "an", "ti", "sel"]
        let kanji = Array("東西南北上下山川田海空風雨雪花草木林森石金銀銅鉄火水土日月星光影音声色形春夏秋冬朝昼夜町村都市港駅道橋門家屋店社寺城国語文字本紙筆書読見聞話言思考知学校先生子供親友人男女手足目耳口心体頭顔")
        func synthetic(_ seed: UInt64, count: Int, make: (inout SplitMix64) -> String) -> [String] {
            var rng = SplitMix64(seed: seed)
            var seen = Set<String>()
            var out: [String] = []
            while out.count < count {
                let word = make(&rng)
                if seen.insert(word).inserted { out.append(word) }
            }
            return out
        }
        let latinWord: (inout SplitMix64) -> String = { rng in
            (0..<(2 + rng.below(3))).map { _ in rng.pick(latin) }.joined()
        }
        let hangulWord: (inout SplitMix64) -> String = { rng in
            String(String.UnicodeScalarView((0..<(2 + rng.below(2))).map { _ in
                Unicode.Scalar(UInt32(0xAC00 + rng.below(11172)))!
            }))
        }
        let kanjiWord: (inout SplitMix64) -> String = { rng in
            String((0..<(2 + rng.below(2))).map { _ in rng.pick(kanji) })
        }
        let count = 30_000
        return Vocabularies(
            english: english + synthetic(1, count: count, make: latinWord),
            indonesian: indonesian + synthetic(2, count: count, make: latinWord),
            korean: korean + synthetic(3, count: count, make: hangulWord),
            japanese: japanese + synthetic(4, count: count, make: kanjiWord))
    }()

    /// A word index with probability falling off as 1/rank (Zipf's law).
    static func zipf(_ count: Int, rng: inout SplitMix64) -> Int {
        min(Int(pow(Double(count), rng.unit())) - 1, count - 1)
    }

    static func sentence(_ language: Language, words count: Int, rng: inout SplitMix64) -> String {
        let vocabulary = words(language)
        switch language {
        case .japanese:
            var out = ""
            for _ in 0..<count { out += vocabulary[zipf(vocabulary.count, rng: &rng)] + rng.pick(particlesJA) }
            return out + "。"
        default:
            var parts: [String] = []
            for _ in 0..<count { parts.append(vocabulary[zipf(vocabulary.count, rng: &rng)]) }
            let sentence = parts.joined(separator: " ")
            return sentence.prefix(1).uppercased() + sentence.dropFirst() + "."
        }
    }

    static func title(_ language: Language, rng: inout SplitMix64) -> String {
        var title = sentence(language, words: 3 + rng.below(7), rng: &rng)
        title.removeLast()
        return title
    }

    /// A body of paragraphs whose UTF-8 size is about `bytes`.
    static func body(_ language: Language, bytes: Int, rng: inout SplitMix64) -> String {
        var paragraphs: [String] = []
        var size = 0
        while size < bytes {
            var paragraph: [String] = []
            for _ in 0..<(3 + rng.below(5)) {
                paragraph.append(sentence(language, words: 6 + rng.below(12), rng: &rng))
            }
            let text = paragraph.joined(separator: language == .japanese ? "" : " ")
            paragraphs.append(text)
            size += text.utf8.count + 2
        }
        return paragraphs.joined(separator: "\n\n")
    }
}
