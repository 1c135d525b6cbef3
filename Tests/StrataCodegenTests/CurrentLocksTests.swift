import Foundation
import StrataTestSupport
import Testing
@testable import StrataCodegen
import StrataSchema

/// The locks a generation computes or takes from the render cache: always the locks hashing
/// gives, taken from the cache only for a version file whose bytes are the ones they came from.
@Suite("Current locks")
struct CurrentLocksTests {
    private func loaded() throws -> (LoadedModel, Model) {
        let loaded = ModelLoader.load(directory: CodegenTests.sample)
        return (loaded, try #require(loaded.model))
    }

    private func hashed(_ version: SchemaVersion) -> [String: LockHash] {
        EntityShape.shapes(of: version).mapValues { LockFormat.current.lock($0) }
    }

    @Test func theLocksAreTheHashedOnesWithOrWithoutACache() throws {
        let (loaded, model) = try loaded()
        let computed = CurrentLocks.of(model, sources: loaded.sources, cache: nil)
        #expect(computed.keys.sorted() == model.versions.map(\.name).sorted())
        for version in model.versions {
            #expect(computed[version.name] == hashed(version))
        }
        let folder = TestFolders.url("strata-current-locks").path
        let first = RenderCache(directory: folder, generator: "test")
        #expect(CurrentLocks.of(model, sources: loaded.sources, cache: first) == computed)
        #expect(first.hits == 0 && first.misses == model.versions.count)
        let second = RenderCache(directory: folder, generator: "test")
        #expect(CurrentLocks.of(model, sources: loaded.sources, cache: second) == computed)
        #expect(second.hits == model.versions.count && second.misses == 0)
        // Another generator computes them again.
        let other = RenderCache(directory: folder, generator: "test 2")
        #expect(CurrentLocks.of(model, sources: loaded.sources, cache: other) == computed)
        #expect(other.hits == 0)
    }

    /// A version file whose bytes changed is hashed again, from the model read from those bytes;
    /// the other versions' locks come from the cache.
    @Test func onlyAChangedVersionFileIsHashedAgain() throws {
        let (loaded, model) = try loaded()
        let folder = TestFolders.url("strata-current-locks").path
        _ = CurrentLocks.of(model, sources: loaded.sources, cache: RenderCache(directory: folder, generator: "test"))

        var changed = model
        let current = try #require(changed.versions.firstIndex { $0.name == model.currentVersion?.name })
        let dog = try #require(changed.versions[current].entities.firstIndex { $0.name == "Dog" })
        let attribute = try #require(changed.versions[current].entities[dog].attributes.firstIndex { !$0.isOptional && $0.isStored })
        changed.versions[current].entities[dog].attributes[attribute].isOptional = true
        var sources = loaded.sources
        let file = changed.versions[current].file
        sources[file] = try #require(sources[file]) + Array("\n# made optional\n".utf8)

        let cache = RenderCache(directory: folder, generator: "test")
        let locks = CurrentLocks.of(changed, sources: sources, cache: cache)
        #expect(cache.missed == ["locks-" + changed.versions[current].name])
        #expect(locks[changed.versions[current].name] == hashed(changed.versions[current]))
        #expect(locks[changed.versions[current].name]?["Dog"] != hashed(model.versions[current])["Dog"])
    }

    /// An entry that cannot be read as locks, or that names other entities, is hashed again and
    /// written again.
    @Test func aDamagedEntryIsHashedAgain() throws {
        let (loaded, model) = try loaded()
        let computed = CurrentLocks.of(model, sources: loaded.sources, cache: nil)
        let version = try #require(model.currentVersion)
        let folder = TestFolders.url("strata-current-locks").path
        _ = CurrentLocks.of(model, sources: loaded.sources, cache: RenderCache(directory: folder, generator: "test"))
        let entry = folder + "/locks-" + version.name + ".rendered"
        for damage in ["not a lock\n", "Dog 1 2 3\n", "Dog 1 2 3 zz\n", CurrentLocks.text(["Stranger": LockHash(words: [1, 2, 3, 4])])] {
            try Data(damage.utf8).write(to: URL(fileURLWithPath: entry))
            let cache = RenderCache(directory: folder, generator: "test")
            #expect(CurrentLocks.of(model, sources: loaded.sources, cache: cache) == computed)
            // ... and written again.
            let rewritten = try String(contentsOfFile: entry, encoding: .utf8)
            #expect(CurrentLocks.parse(rewritten, of: version) == computed[version.name])
        }
        #expect(CurrentLocks.parse(CurrentLocks.text(computed[version.name] ?? [:]), of: version) == computed[version.name])
    }

    /// Known locks spare hashing a sealed version's entities, and cannot make it look sealed
    /// when they are wrong: a known lock that is not the sealed one is checked by hashing.
    @Test func verifyingWithKnownLocksGivesTheSameReport() throws {
        let (loaded, model) = try loaded()
        let sealed = try #require(model.versions.first { $0.versionLock != nil })
        let plain = VerifyReport(loaded: loaded, proposingLocks: false)
        let known = CurrentLocks.of(model, sources: loaded.sources, cache: nil)
        let withKnown = VerifyReport(loaded: loaded, proposingLocks: false, currentLocks: known)
        #expect(withKnown.versions == plain.versions)
        let wrong = known.mapValues { $0.mapValues { _ in LockHash(words: [1, 2, 3, 4]) } }
        let withWrong = VerifyReport(loaded: loaded, proposingLocks: false, currentLocks: wrong)
        #expect(withWrong.versions.first { $0.version == sealed.name }?.state == .sealed)
        #expect(withWrong.versions.map(\.state) == plain.versions.map(\.state))
    }
}
