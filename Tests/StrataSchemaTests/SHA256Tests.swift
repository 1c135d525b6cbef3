import Testing
@testable import StrataSchema

@Suite("SHA-256 (FIPS 180-4 test vectors)")
struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func standardVectors(message: String, digest: String) {
        #expect(hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func oneMillionAs() {
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func blockBoundariesAgreeWithOneShotHashing() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for split in [0, 1, 55, 56, 63, 64, 65, 127, 128, 199] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == SHA256.hash(message))
        }
    }

    @Test func lockHashesPrintAsFourPaddedWords() {
        let lock = LockHash(digest: Array(repeating: 0, count: 31) + [0x0f])
        #expect(lock.description == "[0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x000000000000000f]")
    }
}
