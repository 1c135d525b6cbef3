import Foundation
import Strata
import StrataTestSupport
import Testing

/// Generated `ImportPayload`s (the Feed model): decoded with `JSONDecoder` on any actor, passed into
/// asynchronous transactions, and imported exactly as the dictionary sources they mirror.
@Suite("Import payloads")
@MainActor
struct ImportPayloadTests {
    static let json = Data(#"""
    [
      {"id": 1, "title": "Hello", "score": 4.5, "token": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "draft": false,
       "author": {"handle": "ann", "profile": {"display_name": "Ann", "joined": "2024-05-01T12:00:00Z"}},
       "tags": [{"label": "news"}, {"label": "swift"}]},
      {"id": 2, "title": "Second", "author": "ann", "tags": []},
      {"title": "No ID: skipped"},
      {"id": 1, "title": "Hello again", "author": {"handle": "ann", "profile": {"joined": 1714564800}}}
    ]
    """#.utf8)

    private static func decodedOffTheMainActor(_ data: Data) async throws -> [Post.ImportPayload] {
        try await Task.detached { try JSONDecoder().decode([Post.ImportPayload].self, from: data) }.value
    }

    @Test func payloadsDecodedOnAnyActorImportInAnAsynchronousTransaction() async throws {
        let stack = DataStack(Feed.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let payloads = try await Self.decodedOffTheMainActor(Self.json)
        let counts = try await stack.perform { transaction in
            let report = try transaction.importUniqueObjectsReporting(Into<Post>(), sourceArray: payloads)
            return [report.objects.count, report.inserted, report.updated, report.skippedWithoutID, report.superseded, report.declined]
        }
        #expect(counts == [2, 2, 0, 1, 1, 0])
        let posts = try stack.fetchAll(From<Post>().orderBy(.ascending(\.remoteID)))
        #expect(posts.map(\.title) == ["Hello again", "Second"])
        #expect(posts[0].score == 0, "the last source for ID 1 has no score, so the default stays")
        #expect(posts.map { $0.author?.handle } == ["ann", "ann"])
        #expect(posts[0].tags.isEmpty, "the last source for ID 1 has no tags key")
        let ann = try #require(try stack.fetchOne(From<Author>()))
        #expect(ann.name == nil, "the last nested source of Ann has no display_name")
        #expect(ann.joined == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(try stack.fetchCount(From<Author>()) == 1)

        let update = try await Self.decodedOffTheMainActor(Data(#"""
            [{"id": 2, "score": 9, "token": null, "tags": [{"label": "a"}, {"label": "b"}],
              "author": {"handle": "bob", "profile": {"display_name": null}}}]
            """#.utf8))
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObjects(Into<Post>(), sourceArray: update)
        }
        let second = try #require(try stack.fetchOne(From<Post>().where(\.remoteID == 2)))
        #expect(second.title == "Second")
        #expect(second.score == 9)
        #expect(second.token == nil)
        #expect(second.tags.map(\.label) == ["a", "b"])
        #expect(second.author?.handle == "bob")
        #expect(try stack.fetchCount(From<Author>()) == 2)
    }

    @Test func dictionariesAndDecodedJSONGiveEqualPayloads() throws {
        let dictionaries = try #require(try JSONSerialization.jsonObject(with: Self.json) as? [[String: Any]])
        let decoded = try JSONDecoder().decode([Post.ImportPayload].self, from: Self.json)
        let converted = try dictionaries.map { try Post.ImportPayload(jsonObject: $0) }
        #expect(converted == decoded)
        #expect(Set(decoded).count == 4)
        #expect(decoded[0].token == .value(UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!))
        #expect(decoded[1].author == .ids(["ann"]))
        #expect(decoded[1].tags == .objects([]))
        #expect(decoded[2].remoteID == nil)
        #expect(decoded[3].author == .objects([Author.ImportPayload(handle: "ann", joined: .value(Date(timeIntervalSince1970: 1_714_564_800)))]))
    }

    @Test func payloadsBuiltInCodeImportToo() async throws {
        let stack = DataStack(Feed.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let payload = Post.ImportPayload(remoteID: 7, title: "Built", draft: true,
                                         author: .objects([Author.ImportPayload(handle: "cy", name: .value("Cy"))]),
                                         tags: .objects([Topic.ImportPayload(label: "x")]))
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObject(Into<Post>(), source: payload)
        }
        let post = try #require(try stack.fetchOne(From<Post>()))
        #expect(post.remoteID == 7 && post.title == "Built" && post.draft)
        #expect(post.author?.name == "Cy")
        #expect(post.tags.map(\.label) == ["x"])
    }

    /// IDs and numbers written as text (as APIs send IDs beyond 2^53) import by both paths alike.
    @Test func numbersWrittenAsTextImportByEitherPath() async throws {
        let json = Data(#"[{"id": "9007199254740993", "score": "2.5"}, {"id": "12", "score": "-1e3"}, {"id": "7.0", "score": "0"}]"#.utf8)
        let decoded = try JSONDecoder().decode([Post.ImportPayload].self, from: json)
        let dictionaries = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        #expect(try dictionaries.map { try Post.ImportPayload(jsonObject: $0) } == decoded)
        #expect(decoded.map(\.remoteID) == [9_007_199_254_740_993, 12, 7])
        let stack = DataStack(Feed.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            let sources = try JSONSerialization.jsonObject(with: json) as? [[String: Any]] ?? []
            _ = try transaction.importUniqueObjects(Into<Post>(), sourceArray: sources)
            _ = try transaction.importUniqueObjects(Into<Post>(), sourceArray: decoded)
        }
        let posts = try stack.fetchAll(From<Post>().orderBy(.ascending(\.remoteID)))
        #expect(posts.map(\.remoteID) == [7, 12, 9_007_199_254_740_993])
        #expect(posts.map(\.score) == [0, -1000, 2.5])
    }

    @Test func aSourceThatDoesNotFitNamesTheEntityTheSourceAndTheKey() throws {
        let cases: [(String, StrataError)] = [
            (#"[{"id": "3.5"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "id", reason: "expected a whole number that fits Int64, found the text \"3.5\"")),
            (#"[{"id": "many"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "id", reason: "expected a whole number that fits Int64, found the text \"many\"")),
            (#"[{"id": "99999999999999999999"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "id",
                                  reason: "expected a whole number that fits Int64, found the text \"99999999999999999999\"")),
            (#"[{"id": 1, "score": " 2"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "score", reason: "expected a number, found the text \" 2\"")),
            (#"[{"id": 1, "score": "1e999"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "score", reason: "expected a number, found the text \"1e999\"")),
            (#"[{"id": 1}, {"id": 2, "score": "high"}]"#,
             .invalidImportSource(entity: "Post", source: "[1]", key: "score", reason: "expected a number, found the text \"high\"")),
            (#"[{"id": 1.5}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "id", reason: "expected a whole number that fits Int64, found 1.5")),
            (#"[{"id": 1, "draft": 1}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "draft", reason: "expected true or false, found 1")),
            (#"[{"id": 1, "token": "not-a-uuid"}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "token", reason: "expected a UUID, found the text \"not-a-uuid\"")),
            (#"[{"id": 1, "author": {"handle": "ann", "profile": {"joined": "yesterday"}}}]"#,
             .invalidImportSource(entity: "Author", source: "[0].author", key: "profile.joined",
                                  reason: "expected an ISO 8601 date or seconds since 1970, found the text \"yesterday\"")),
            (#"[{"id": 1, "author": {"handle": true}}]"#,
             .invalidImportSource(entity: "Author", source: "[0].author", key: "handle", reason: "expected text, found true")),
            (#"[{"id": 1, "tags": [{"label": "a"}, 3]}]"#,
             .invalidImportSource(entity: "Topic", source: "[0].tags[1]", key: nil, reason: "found 3, but 'Topic' has no uniqueID to find objects by")),
            (#"[{"id": 1, "author": ["ann", {"handle": "bob"}]}]"#,
             .invalidImportSource(entity: "Post", source: "[0]", key: "author", reason: "expected objects or IDs, found an array that mixes them")),
            (#"[{"id": 1}, "post"]"#,
             .invalidImportSource(entity: "Post", source: "[1]", key: nil, reason: "expected an object, found the text \"post\"")),
        ]
        for (json, error) in cases {
            #expect(throws: error, "decoding \(json)") {
                try JSONDecoder().decode([Post.ImportPayload].self, from: Data(json.utf8))
            }
            let dictionaries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
            #expect(throws: error, "converting \(json)") {
                for (index, source) in dictionaries.enumerated() {
                    _ = try JSONObjectDecoder.decode(Post.ImportPayload.self, from: source, codingPath: [Index(intValue: index)!])
                }
            }
        }
        #expect(throws: StrataError.invalidImportSource(entity: "Post", source: "", key: "score", reason: "expected a number, found false")) {
            try JSONDecoder().decode(Post.ImportPayload.self, from: Data(#"{"score": false}"#.utf8))
        }
        #expect(StrataError.invalidImportSource(entity: "Post", source: "[1]", key: "score", reason: "expected a number, found the text \"high\"").description
                == "cannot import 'Post' from source [1], key 'score': expected a number, found the text \"high\"")
        #expect(StrataError.invalidImportSource(entity: "Post", source: "", key: nil, reason: "expected an object, found 3").description
                == "cannot import 'Post' from the source: expected an object, found 3")
    }

    @Test func anUnknownIDFailsTheTransactionAndNothingIsKept() async throws {
        let stack = DataStack(Feed.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let payloads = try JSONDecoder().decode([Post.ImportPayload].self, from: Data(#"[{"id": 1}, {"id": 2, "author": "nobody"}]"#.utf8))
        await #expect(throws: StrataError.importFailed(entity: "Post", attribute: "author", key: "author", reason: "no 'Author' has the ID nobody")) {
            try await stack.perform { transaction in
                _ = try transaction.importUniqueObjects(Into<Post>(), sourceArray: payloads)
            }
        }
        #expect(try stack.fetchCount(From<Post>()) == 0)
    }

    /// An array index as a coding key, as `JSONDecoder` gives one.
    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init?(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { return nil }
    }
}

/// Imports as an app writes them, from JSON decoded on any actor: the closure's value (the
/// imported objects, which cannot leave the transaction) is dropped, and a `Sendable` value
/// is still returned.
@Suite("Import payloads: as apps write them")
@MainActor
struct ImportPayloadSpellingTests {
    @Test func aClosureReturningObjectsCompilesAndCommits() async throws {
        let stack = DataStack(Feed.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let data = Data(#"[{"id": 1, "title": "A"}, {"id": 2, "title": "B"}]"#.utf8)
        let posts = try await Task.detached { try JSONDecoder().decode([Post.ImportPayload].self, from: data) }.value
        try await stack.perform { t in try t.importUniqueObjects(Into<Post>(), sourceArray: posts) }
        let count = try await stack.perform { t in try t.fetchCount(From<Post>()) }
        #expect(count == 2)
        #expect(try stack.fetchCount(From<Post>()) == 2)
    }
}
