import Foundation
import Testing
@testable import Strata

// The README's observing examples, compiled here; `readmeShowsTheseSnippets` checks that the
// README holds each one word for word. They are compiled, not run (their loops never end).

@MainActor
func listMonitorSnippet(stack: DataStack) async throws {
    // snippet: list-monitor
    let monitor = try stack.monitorList(From<Person>().where(\.age > 30).orderBy(.ascending(\.name)))
    print(monitor.numberOfObjects, monitor.object(at: ListIndexPath(item: 0, section: 0))?.name ?? "none")
    for try await update in monitor.updates {
        for item in update.changes.inserted { print("inserted at", item.indexPath) }
        for move in update.changes.moved { print("moved from", move.from, "to", move.to) }
        print("now", update.snapshot.count, "people")
    }
    // end snippet
}

@MainActor
func sectionedMonitorSnippet(stack: DataStack) throws {
    // snippet: sectioned-monitor
    let byAge = try stack.monitorSectionedList(
        From<Person>().sectionBy(\.age, sectionName: { "Age \($0 ?? "unknown")" }).orderBy(.ascending(\.name)))
    for section in byAge.sections { print(section.name ?? "", section.count) }
    // end snippet
}

@MainActor
func objectMonitorSnippet(stack: DataStack, personID: ObjectID<Person>) async throws {
    // snippet: object-monitor
    let monitor = try stack.monitorObject(personID)
    for try await update in monitor.updates {
        switch update {
        case .updated(let properties): print("changed:", properties.sorted(), monitor.object?.name ?? "")
        case .deleted: print("deleted")
        }
    }
    // end snippet
}

func publisherSnippet(stack: DataStack, personID: ObjectID<Person>) async throws {
    // snippet: publishers
    for try await snapshot in stack.publishList(From<Person>().orderBy(.ascending(\.name))) {
        print(snapshot.itemIDs)  // [ObjectID<Person>] in order, ready for a diffable data source
    }
    for try await person in stack.publishObject(personID, as: Person.Snapshot.self) {
        print(person?.name ?? "deleted")
    }
    // end snippet
}

@Suite("README observing examples", .timeLimit(.minutes(5)))
struct ReadmeObservingSnippetTests {
    /// The snippets of a text: name to lines, without their common indentation.
    static func snippets(in text: String, start: String, end: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current: (name: String, lines: [String])?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = current {
                if trimmed == end {
                    let indent = open.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    result[open.name] = open.lines.map { String($0.dropFirst(min(indent, $0.count))) }
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            } else if trimmed.hasPrefix(start) {
                current = (String(trimmed.dropFirst(start.count)).trimmingCharacters(in: .whitespaces), [])
            }
        }
        return result
    }

    @Test func readmeShowsTheseSnippets() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let compiled = Self.snippets(in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8),
                                     start: "// snippet:", end: "// end snippet")
        // In the README or the runtime article each snippet is a Swift block after `<!-- snippet: NAME -->`.
        var readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
            + String(contentsOf: root.appendingPathComponent("Sources/Strata/Strata.docc/Runtime.md"), encoding: .utf8)
        readme = readme.replacingOccurrences(of: "-->\n```swift", with: "").replacingOccurrences(of: "<!-- snippet:", with: "// snippet:")
        let shown = Self.snippets(in: readme, start: "// snippet:", end: "```")
        #expect(compiled.count == 4)
        for (name, lines) in compiled {
            #expect(shown[name] == lines, "README snippet '\(name)' differs from the compiled one")
        }
    }
}
