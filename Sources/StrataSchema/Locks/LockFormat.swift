/// The canonical encodings a lock can be computed over, oldest first.
///
/// A lock is the SHA-256 of one of these encodings. New formats are only ever added; `strata verify`
/// accepts a lock computed in any of them, so a newer Strata never turns a sealed version red, and
/// `strata lock` always writes ``current``.
///
/// Format 1 is UTF-8 text. It starts with the line `strata-lock/1`, then one line per record:
/// a tag, then fields `name=value` separated by single spaces, where every value is written as
/// its UTF-8 byte count, a colon and the bytes (`5:Hello`), or `-` when absent. Records:
///
/// ```text
/// entity name=<entity> abstract=<true|false> parent=<entity|->
/// attribute key=<storage key> type=<type> optional=<bool> default=<canonical|-> initial=<now|uuid|-> indexed=<bool> unique=<bool> coder=<coder|->
/// relationship key=<storage key> destination=<entity> inverse=<storage key> kind=<toOne|unordered|ordered> deleteRule=<rule> min=<n|-> max=<n|->
/// unique key=<storage key> key=<storage key> ...
/// ```
///
/// Attributes and relationships come sorted by storage key, uniqueness groups sorted, each line
/// ends with a line feed. An `entity`, `attribute` or `relationship` line whose element has a
/// `hashModifier:` ends with ` hashModifier=<text>`; without one the line is as above, so models
/// that use none lock as they always did. The same holds for the fields of syncing: an entity
/// that syncs has ` sync=4:true` after `parent`, then ` owner=<storage key>` when it names an
/// owner, and an attribute with `merge:` has ` merge=<rule>` after `coder`.
public enum LockFormat: Int, CaseIterable, Sendable, Codable {
    /// The first encoding.
    case v1 = 1

    /// The format `strata lock` writes.
    public static let current = LockFormat.v1

    /// The bytes hashed for `shape`.
    public func encode(_ shape: EntityShape) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + 160 * (shape.attributes.count + shape.relationships.count))
        bytes.append(contentsOf: "strata-lock/\(rawValue)\n".utf8)
        func line(_ tag: String, _ fields: [(name: String, value: String?)]) {
            bytes.append(contentsOf: tag.utf8)
            for (name, value) in fields {
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: name.utf8)
                bytes.append(UInt8(ascii: "="))
                if let value {
                    bytes.append(contentsOf: String(value.utf8.count).utf8)
                    bytes.append(UInt8(ascii: ":"))
                    bytes.append(contentsOf: value.utf8)
                } else {
                    bytes.append(UInt8(ascii: "-"))
                }
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        func modifier(_ text: String?) -> [(name: String, value: String?)] { text.map { [("hashModifier", $0)] } ?? [] }
        // `sync` and `owner` only when set, so entities that do not sync lock as they always did.
        let sync: [(name: String, value: String?)] = (shape.sync == true ? [("sync", "true")] : []) + (shape.owner.map { [("owner", $0)] } ?? [])
        line("entity", [("name", shape.entity), ("abstract", String(shape.abstract)), ("parent", shape.parent)] + sync + modifier(shape.hashModifier))
        for attribute in shape.attributes {
            line("attribute", [("key", attribute.storageKey)] + attribute.fields + modifier(attribute.hashModifier))
        }
        for relationship in shape.relationships {
            line("relationship", [("key", relationship.storageKey)] + relationship.fields + modifier(relationship.hashModifier))
        }
        for group in shape.uniqueness {
            line("unique", group.map { ("key", $0) })
        }
        return bytes
    }

    /// The lock of `shape` in this format.
    public func lock(_ shape: EntityShape) -> LockHash {
        LockHash(digest: SHA256.hash(encode(shape)))
    }
}
