import Testing

@testable import HeraldAccounts

/// MD5 against RFC 1321's test suite and a few more (the padding's edges, UTF-8, a megabyte),
/// checked with coreutils' md5sum.
@Suite struct MD5Tests {
    @Test(
        "digests match the known vectors",
        arguments: [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            (
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
                "d174ab98d277d9f5a5611c2c9f419d9f"
            ),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
            ("émile:pässwörd✓", "3617fc644db0f3d22f82e342f89de5c7"),
            (String(repeating: "x", count: 55), "04364420e25c512fd958a70738aa8f72"),
            (String(repeating: "x", count: 56), "668a72d5ba17f08e62dabcafad6db14b"),
            (String(repeating: "x", count: 64), "c1bb4f81d892b2d57947682aeb252456"),
        ])
    func knownVectors(text: String, digest: String) {
        #expect(MD5.hex(text) == digest)
    }

    @Test("a megabyte digests right")
    func aMegabyte() {
        #expect(MD5.hex(String(repeating: "a", count: 1_000_000)) == "7707d6ae4e027c70eea2a935c2296f21")
    }
}
