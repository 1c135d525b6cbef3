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
