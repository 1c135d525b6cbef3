import Synchronization

/// The templates and each file's context, read by every rendering thread at once.
///
/// `@unchecked Sendable` because it is sound to share: both are `let`s built before rendering
/// starts and only read afterwards; their values are strings, numbers, arrays and
/// ``TemplateNode``s, whose values are never changed after they are made.
final class SharedContext: @unchecked Sendable {
    let templates: [String: String]
    let contexts: [[String: Any]]

    init(templates: [String: String], contexts: [[String: Any]]) {
        self.templates = templates
        self.contexts = contexts
    }
}

/// One rendered text (or error) per template, filled in from several threads.
final class RenderResults: Sendable {
    private let results: Mutex<[Result<String, any Error>]>

    init(count: Int) {
        results = Mutex(Array(repeating: .success(""), count: count))
    }

    func set(_ index: Int, _ result: Result<String, any Error>) {
        results.withLock { $0[index] = result }
    }

    var all: [Result<String, any Error>] { results.withLock { $0 } }
}
