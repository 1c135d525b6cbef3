import Foundation
import Testing
@testable import StrataSchema

/// Feeds mangled copies of a real model to the whole pipeline: every one must end in a clean
/// report (valid, or errors with positions), never a crash or a hang.
@Suite("Mangled model files")
struct MutationTests {
    /// A small deterministic generator (xorshift64*), so every run tries the same files.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    static let fragments = [":", "- ", "[", "]", "{", "}", "&a ", "*a", "\t", "\n", "  ", "'", "\"", "#", "!!str ", "<<: *a\n",
                            "? ", "|\n", "---\n", "%YAML 1.1\n", "\u{0}", "\u{FEFF}", "é", "🐶", "\\", "~", "0x", "-1"]

    private func mutate(_ bytes: [UInt8], using generator: inout Generator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where position < bytes.count:
                bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 1 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &generator))
                bytes.removeSubrange(position..<end)
            case 2 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...80, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            default:
                let fragment = Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &generator)]
                bytes.insert(contentsOf: Array(fragment.utf8), at: position)
            }
        }
        return bytes
    }

    @Test func everyMangledFileGivesACleanReport() throws {
        let sample = SampleModelTests.directory
        let names = ["model.yml", "V1.yml", "V2.yml"]
        let originals = try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: sample + "/" + $0))) }
        var generator = Generator(state: 0x5EED_CAFE_F00D_D00D)
        var valid = 0
        var invalid = 0
        for round in 0..<400 {
            let target = round % names.count
            var files: [String: [UInt8]] = [:]
            for (index, name) in names.enumerated() {
                files[name] = index == target ? mutate(originals[index], using: &generator) : originals[index]
            }
            let fixture = try ModelFixture(bytes: files)
            let report = VerifyReport(directory: fixture.directory)
            if report.exitCode == 2 {
                invalid += 1
                #expect(report.diagnostics.contains { $0.severity == .error }, "round \(round): exit 2 without an error")
                #expect(report.diagnostics.allSatisfy { $0.location.line >= 1 && $0.location.column >= 1 }, "round \(round)")
            } else {
                valid += 1
            }
            try? FileManager.default.removeItem(atPath: fixture.directory)
        }
        #expect(invalid > 100)
        #expect(valid + invalid == 400)
    }
}
