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

    /// The real words first (the most frequent), then 30,000 made-up ones, so that word
    /// frequencies fall off as in real text (a few common words, a long tail of rare ones).
    static func words(_ language: Language) -> Vocabulary {
        switch language {
        case .english: vocabularies.english
        case .indonesian: vocabularies.indonesian
        case .korean: vocabularies.korean
        case .japanese: vocabularies.japanese
        }
    }

    /// A language's words as UTF-8 in one buffer: sentences are made of bytes, not joined
    /// Strings (`populate` makes a million articles; the generator must not be what it times).
    /// A language's words as UTF-8, each in a slot of its own (its length, then its bytes):
    /// a word is read from one cache line, not found through a table of offsets first. A
    /// third of the words drawn are rare ones, from anywhere in the 30,000; their cache
    /// misses were most of what the generator cost.
    struct Vocabulary: Sendable {
        private let slots: [UInt8]
        /// Bytes a word's slot takes: a power of two, so that no slot spans two cache lines.
        let stride: Int
        let count: Int
        /// The longest word's bytes.
        let longest: Int

        /// log2 of the word count, for `zipf`.
        private let log2Count: Double
        /// `zipf`'s answer for each of `parts` equal parts of [0, 1) whose every u has the
        /// same answer, -1 for the others (most of the rare words' parts): 62% of draws are
        /// looked up, not computed.
        private let answers: [Int16]
        private static let partBits = 14

        init(_ words: [String]) {
            longest = words.map(\.utf8.count).max() ?? 0
            precondition(longest < 255, "a word too long for a slot")
            var stride = 16
            while stride <= longest { stride *= 2 }
            // One slot more at the end: `write` copies a whole slot's worth from the byte
            // after a slot's length, one byte into the slot after it.
            var slots = [UInt8](repeating: 0, count: (words.count + 1) * stride)
            for (index, word) in words.enumerated() {
                slots[index * stride] = UInt8(word.utf8.count)
                slots.replaceSubrange(
                    (index * stride + 1)...(index * stride + word.utf8.count), with: word.utf8)
            }
            (self.slots, self.stride, count) = (slots, stride, words.count)
            log2Count = log2(Double(words.count))
            answers = Self.answers(count: words.count)
        }

        /// A part's answer when the whole of it, with a margin a thousand times `zipf`'s,
        /// lies between two integers: count^u is increasing, so the part's ends bound it,
        /// and `zipf` computes it to within 1e-14 and floors it unless within 1e-12 of an
        /// integer, so every u in the part gets that answer from `zipf` too.
        private static func answers(count: Int) -> [Int16] {
            precondition(count <= Int(Int16.max), "too many words for the table")
            let parts = 1 << partBits
            return (0..<parts).map { part in
                let low = pow(Double(count), Double(part) / Double(parts))
                let high = pow(Double(count), Double(part + 1) / Double(parts))
                let floor = Int(low * (1 + 1e-9))
                guard Int(low * (1 - 1e-9)) == floor, Int(high * (1 + 1e-9)) == floor else { return -1 }
                return Int16(min(floor - 1, count - 1))
            }
        }

        /// A word index with probability falling off as 1/rank (Zipf's law): the integer
        /// part of count^u, u uniform in [0, 1). `exp2(u × log2(count))` is within 1e-14 of
        /// `pow(count, u)` and takes a third of its time: its integer part is `pow`'s unless
        /// it lies within 1e-12 of an integer, where `pow` decides (the same library as ever).
        func zipf(rng: inout SplitMix64) -> Int {
            // `rng.unit()`'s 53 bits, whose first `partBits` say which part u is in.
            let bits = rng.next() >> 11
            let answer = answers.withUnsafeBufferPointer { $0[Int(bits >> (53 - Self.partBits))] }
            if answer >= 0 { return Int(answer) }
            let u = Double(bits) / Double(1 << 53)
            let x = exp2(u * log2Count)
            let margin = x * 1e-12
            // x ≥ 1, so converting to Int is taking the floor (without a call to `floor`).
            var floor = Int(x - margin)
            if floor != Int(x + margin) { floor = Int(pow(Double(count), u)) }
            return min(floor - 1, count - 1)
        }

        /// Writes word `index`: copies its whole slot, eight bytes at a time, and counts only
        /// the word's bytes (the writer has `stride` bytes to spare past the end). A loop over
        /// the word's own bytes ended at a different length each word, a branch the processor
        /// mispredicted for most words; this loop's length is the same for every word.
        func write(word index: Int, to out: inout SyntheticText.ByteWriter) {
            slots.withUnsafeBytes { slots in
                let slot = index * stride
                let target = UnsafeMutableRawPointer(out.base + out.count)
                var offset = 0
                while offset < stride {
                    let eight = slots.loadUnaligned(fromByteOffset: slot + 1 + offset, as: UInt64.self)
                    target.storeBytes(of: eight, toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                out.count += Int(slots[slot])
            }
        }
    }

    struct Vocabularies: Sendable {
        var english: Vocabulary
        var indonesian: Vocabulary
        var korean: Vocabulary
        var japanese: Vocabulary
    }

    static let vocabularies: Vocabularies = {
        let latin = [
            "ka", "ri", "to", "men", "sa", "lo", "ve", "dan", "bi", "ru", "te", "mo", "nis", "pa", "ghe",
            "lu", "cor", "an", "ti", "sel",
        ]
        let kanji = Array(
            "東西南北上下山川田海空風雨雪花草木林森石金銀銅鉄火水土日月星光影音声色形春夏秋冬朝昼夜町村都市港駅道橋門家屋店社寺城国語文字本紙筆書読見聞話言思考知学校先生子供親友人男女手足目耳口心体頭顔")
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
            String(
                String.UnicodeScalarView(
                    (0..<(2 + rng.below(2))).map { _ in
                        Unicode.Scalar(UInt32(0xAC00 + rng.below(11172)))!
                    }))
        }
        let kanjiWord: (inout SplitMix64) -> String = { rng in
            String((0..<(2 + rng.below(2))).map { _ in rng.pick(kanji) })
        }
        let count = 30_000
        return Vocabularies(
            english: Vocabulary(english + synthetic(1, count: count, make: latinWord)),
            indonesian: Vocabulary(indonesian + synthetic(2, count: count, make: latinWord)),
            korean: Vocabulary(korean + synthetic(3, count: count, make: hangulWord)),
            japanese: Vocabulary(japanese + synthetic(4, count: count, make: kanjiWord)))
    }()

    static let particlesJA = Vocabulary(["は", "が", "を", "に", "で", "と", "の", "から", "まで"])

    /// Where a sentence is written: a buffer made large enough (`sentenceBound`), with no
    /// checks on each byte (appending to an Array checked each of the generator's bytes).
    struct ByteWriter {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }
    }

    /// The most bytes a sentence of `count` words can take, and the `stride` bytes a word's
    /// copy writes past its end.
    static func sentenceBound(_ language: Language, words count: Int) -> Int {
        let vocabulary = words(language)
        return count * (vocabulary.longest + particlesJA.longest + 1) + 4
            + max(vocabulary.stride, particlesJA.stride)
    }

    static func sentence(_ language: Language, words count: Int, rng: inout SplitMix64) -> String {
        String(unsafeUninitializedCapacity: sentenceBound(language, words: count)) { buffer in
            var out = ByteWriter(base: buffer.baseAddress!)
            writeSentence(language, words: count, rng: &rng, to: &out)
            return out.count
        }
    }

    /// A sentence of `count` words: Japanese words each followed by a particle, ending in
    /// "。"; the others spaced, the first letter capitalised, ending in ".".
    static func writeSentence(
        _ language: Language, words count: Int, rng: inout SplitMix64, to out: inout ByteWriter
    ) {
        let vocabulary = words(language)
        let start = out.count
        for word in 0..<count {
            if language != .japanese, word > 0 { out.put(0x20) }
            vocabulary.write(word: vocabulary.zipf(rng: &rng), to: &out)
            if language == .japanese { particlesJA.write(word: rng.below(particlesJA.count), to: &out) }
        }
        if language == .japanese {
            for byte: UInt8 in [0xE3, 0x80, 0x82] { out.put(byte) }  // 。
        } else {
            // Every word is ASCII or Hangul: only an ASCII letter has a capital.
            if start < out.count, (0x61...0x7A).contains(out.base[start]) { out.base[start] -= 0x20 }
            out.put(0x2E)
        }
    }

    static func title(_ language: Language, rng: inout SplitMix64) -> String {
        let count = 3 + rng.below(7)
        return String(unsafeUninitializedCapacity: sentenceBound(language, words: count)) { buffer in
            var out = ByteWriter(base: buffer.baseAddress!)
            writeSentence(language, words: count, rng: &rng, to: &out)
            return out.count - (language == .japanese ? 3 : 1)
        }
    }

    /// A body of paragraphs whose UTF-8 size is about `bytes`.
    static func body(_ language: Language, bytes: Int, rng: inout SplitMix64) -> String {
        // The last paragraph starts below `bytes`: 7 sentences of 17 words at most.
        let paragraph = 2 + 7 * (sentenceBound(language, words: 17) + 1)
        return String(unsafeUninitializedCapacity: bytes + paragraph) { buffer in
            var out = ByteWriter(base: buffer.baseAddress!)
            var size = 0
            while size < bytes {
                if out.count > 0 {
                    out.put(0x0A)
                    out.put(0x0A)
                }
                let start = out.count
                for sentence in 0..<(3 + rng.below(5)) {
                    if language != .japanese, sentence > 0 { out.put(0x20) }
                    writeSentence(language, words: 6 + rng.below(12), rng: &rng, to: &out)
                }
                size += out.count - start + 2
            }
            return out.count
        }
    }
}
