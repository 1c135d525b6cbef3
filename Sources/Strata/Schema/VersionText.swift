import Foundation

/// The text form in which generated code gives the descriptors of a model's older versions.
///
/// Only a store of an older version needs that version's descriptors, so the generator writes them
/// as one string literal per version, which the runtime reads on first use, instead of Swift code
/// that every build of the app would type-check (for a model with many versions, most of its
/// generated code). The current version stays Swift code.
///
/// One line a declaration; tokens separated by one space; `key=value` options and bare flags after
/// the positional tokens. Names and values escape every byte outside `A-Z a-z 0-9 _ . + -` as `%XX`
/// (UTF-8, uppercase hex), so a token holds no space, `=`, `,` or `:` of its own, and the literal no
/// quote or backslash:
///
/// ```text
/// version V2
/// configuration Cache Thumbnail
/// entity Person lock=1b59d511019695cf,deb97e86c5eff179,1cfd80745646cb3,4ff99416175b5b9a
/// attribute name String indexed default=
/// attribute displayName String key=display_name optional
/// relationship pets Dog master kind=unordered delete=cascade max=500
/// uniqueness name createdAt
/// entity Dog abstract parent=Animal lock=...
/// entity Note sync owner=account lock=...
/// attribute visits Int64 default=0 merge=add
/// same Thumbnail V1
/// migration V1
/// hint Person rename=displayName:nickname
/// hint Cat deleted
/// ```
///
/// `attribute`, `relationship` and `uniqueness` lines belong to the `entity` above them, `hint`
/// lines to the `migration` above them. `same ENTITY VERSION` stands for the entity exactly as an
/// earlier version describes it. An attribute's `default` is the model's canonical text of the
/// value (for a `Date`, its seconds since 2001-01-01), converted as the generated Swift converts it.
extension ModelVersion {
    /// Reads a version's text; `earlier` gives the earlier versions that `same` lines name.
    ///
    /// The text comes from the generator, so text it cannot read is a defect of the generated code,
    /// and stops the process with the line at fault.
    public init(text: String, earlier: (String) -> ModelVersion?) {
        var reader = VersionTextReader()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do throws(VersionTextReader.Failure) {
                try reader.read(line.split(separator: " ").map(String.init), earlier: earlier)
            } catch {
                preconditionFailure("Strata: line \(number + 1) of a generated version description does not read (\(error.reason)): \(line)")
            }
        }
        reader.finishEntity()
        reader.finishMigration()
        self.init(reader.name, entities: reader.entities, configurations: reader.configurations, migrations: reader.migrations)
    }
}

/// Reads the lines of a version's text into its descriptors (see ``ModelVersion/init(text:earlier:)``).
struct VersionTextReader {
    struct Failure: Error {
        let reason: String
    }

    var name = ""
    var entities: [EntityDescription] = []
    var configurations: [String: [String]] = [:]
    var migrations: [MigrationDescription] = []
    /// The entity being read: its line's values and the members read so far.
    private var entity: (name: String, abstract: Bool, parent: String?, sync: Bool, owner: String?, lock: [UInt64])?
    private var attributes: [AttributeDescription] = []
    private var relationships: [RelationshipDescription] = []
    private var uniqueness: [[String]] = []
    /// The migration block being read.
    private var migration: (from: String, hints: [EntityMigrationHint])?

    mutating func read(_ tokens: [String], earlier: (String) -> ModelVersion?) throws(Failure) {
        guard let keyword = tokens.first else { return }
        guard let positionals = Self.positionalCounts[keyword] else { throw Failure(reason: "unknown keyword '\(keyword)'") }
        var line = try Line(Array(tokens.dropFirst()), positionals: positionals)
        switch keyword {
        case "version":
            name = try line.positional()
        case "configuration":
            let configuration = try line.positional()
            configurations[configuration] = line.remaining()
        case "entity":
            finishEntity()
            let entityName = try line.positional()
            let lock = try line.option("lock").map { text throws(Failure) in try Self.words(text) } ?? []
            entity = (entityName, line.flag("abstract"), try line.option("parent"), line.flag("sync"), try line.option("owner"), lock)
        case "attribute":
            guard entity != nil else { throw Failure(reason: "an attribute outside an entity") }
            attributes.append(try Self.attribute(&line))
        case "relationship":
            guard entity != nil else { throw Failure(reason: "a relationship outside an entity") }
            relationships.append(try Self.relationship(&line))
        case "uniqueness":
            guard entity != nil else { throw Failure(reason: "a uniqueness group outside an entity") }
            uniqueness.append(line.remaining())
        case "same":
            finishEntity()
            let entityName = try line.positional()
            let versionName = try line.positional()
            guard let described = earlier(versionName)?.entity(named: entityName) else {
                throw Failure(reason: "version '\(versionName)' has no entity '\(entityName)'")
            }
            entities.append(described)
        case "migration":
            finishEntity()
            finishMigration()
            migration = (try line.positional(), [])
        case "hint":
            guard migration != nil else { throw Failure(reason: "a hint outside a migration") }
            migration?.hints.append(try Self.hint(&line))
        default:
            throw Failure(reason: "unknown keyword '\(keyword)'")
        }
        try line.finish()
    }

    /// How many names each keyword's line starts with (all its tokens for lists of names).
    private static let positionalCounts: [String: Int] = [
        "version": 1, "configuration": .max, "entity": 1, "attribute": 2, "relationship": 3, "uniqueness": .max,
        "same": 2, "migration": 1, "hint": 1,
    ]

    /// Appends the entity being read, if any.
    mutating func finishEntity() {
        guard let entity else { return }
        entities.append(EntityDescription(entity.name, abstract: entity.abstract, parent: entity.parent, attributes: attributes,
                                          relationships: relationships, uniqueness: uniqueness, sync: entity.sync, owner: entity.owner,
                                          lock: entity.lock.isEmpty ? nil : entity.lock))
        self.entity = nil
        attributes = []
        relationships = []
        uniqueness = []
    }

    /// Appends the migration block being read, if any.
    mutating func finishMigration() {
        guard let migration else { return }
        migrations.append(MigrationDescription(from: migration.from, entities: migration.hints))
        self.migration = nil
    }

    private static func attribute(_ line: inout Line) throws(Failure) -> AttributeDescription {
        let name = try line.positional()
        let typeName = try line.positional()
        guard let type = AttributeType(rawValue: typeName) else { throw Failure(reason: "unknown attribute type '\(typeName)'") }
        let initial = try line.option("initial").map { text throws(Failure) -> InitialValue in
            guard let initial = InitialValue(rawValue: text) else { throw Failure(reason: "unknown initial value '\(text)'") }
            return initial
        }
        let defaultValue = try line.option("default").map { text throws(Failure) in try DefaultValueText.sqlValue(text, type: type) }
        let merge = try line.option("merge").map { text throws(Failure) -> AttributeMerge in
            guard let merge = AttributeMerge(rawValue: text) else { throw Failure(reason: "unknown merge rule '\(text)'") }
            return merge
        }
        return AttributeDescription(name, type, storageKey: try line.option("key"), optional: line.flag("optional"),
                                    required: line.flag("required"), indexed: line.flag("indexed"), unique: line.flag("unique"),
                                    default: defaultValue, initial: initial, merge: merge)
    }

    private static func relationship(_ line: inout Line) throws(Failure) -> RelationshipDescription {
        let name = try line.positional()
        let destination = try line.positional()
        let inverse = try line.positional()
        let kindName = try line.option("kind") ?? RelationshipKind.toOne.rawValue
        guard let kind = RelationshipKind(rawValue: kindName) else { throw Failure(reason: "unknown relationship kind '\(kindName)'") }
        let ruleName = try line.option("delete") ?? DeleteRule.nullify.rawValue
        guard let rule = DeleteRule(rawValue: ruleName) else { throw Failure(reason: "unknown delete rule '\(ruleName)'") }
        return RelationshipDescription(name, destination: destination, inverse: inverse, kind: kind, deleteRule: rule,
                                       minCount: try line.option("min").map(Self.count), maxCount: try line.option("max").map(Self.count),
                                       storageKey: try line.option("key"))
    }

    private static func hint(_ line: inout Line) throws(Failure) -> EntityMigrationHint {
        let name = try line.positional()
        var renamed: [String: String] = [:]
        for pair in line.options("rename") {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let new = Line.unescape(parts[0]), let old = Line.unescape(parts[1]) else {
                throw Failure(reason: "a rename is not new:old")
            }
            renamed[new] = old
        }
        return EntityMigrationHint(name, renamedFrom: try line.option("renamedFrom"), deleted: line.flag("deleted"),
                                   custom: line.flag("custom"), renamedProperties: renamed)
    }

    private static func words(_ text: String) throws(Failure) -> [UInt64] {
        let words = text.split(separator: ",").map { UInt64($0, radix: 16) }
        guard words.count == 4, words.allSatisfy({ $0 != nil }) else { throw Failure(reason: "a lock is not four hexadecimal words") }
        return words.compactMap { $0 }
    }

    private static func count(_ text: String) throws(Failure) -> Int {
        guard let count = Int(text) else { throw Failure(reason: "'\(text)' is not a count") }
        return count
    }

    /// One line's tokens after its keyword: `positionals` names first, then options and flags,
    /// each taken once; what is left over is an error.
    struct Line {
        private var positionals: [String] = []
        private var options: [(key: String, value: String)] = []
        private var flags: Set<String> = []

        init(_ tokens: [String], positionals count: Int) throws(Failure) {
            for (index, token) in tokens.enumerated() {
                if index < count {
                    guard let name = Self.unescape(token) else { throw Failure(reason: "'\(token)' is not escaped text") }
                    positionals.append(name)
                } else if let equals = token.firstIndex(of: "=") {
                    options.append((String(token[..<equals]), String(token[token.index(after: equals)...])))
                } else {
                    flags.insert(token)
                }
            }
        }

        mutating func positional() throws(Failure) -> String {
            guard !positionals.isEmpty else { throw Failure(reason: "a name is missing") }
            return positionals.removeFirst()
        }

        /// Every positional token left.
        mutating func remaining() -> [String] {
            defer { positionals = [] }
            return positionals
        }

        mutating func option(_ key: String) throws(Failure) -> String? {
            guard let index = options.firstIndex(where: { $0.key == key }) else { return nil }
            guard let value = Self.unescape(options.remove(at: index).value) else { throw Failure(reason: "the value of '\(key)' is not escaped text") }
            return value
        }

        /// Every value of a repeated option, as written (still escaped).
        mutating func options(_ key: String) -> [String] {
            defer { options.removeAll { $0.key == key } }
            return options.filter { $0.key == key }.map(\.value)
        }

        mutating func flag(_ name: String) -> Bool {
            flags.remove(name) != nil
        }

        func finish() throws(Failure) {
            if let extra = positionals.first ?? options.first?.key ?? flags.first { throw Failure(reason: "'\(extra)' is not expected here") }
        }

        /// The text of an escaped token; nil when a `%` is not followed by two hexadecimal digits
        /// or the bytes are not UTF-8.
        static func unescape(_ token: String) -> String? {
            guard token.contains("%") else { return token }
            var bytes: [UInt8] = []
            var utf8 = token.utf8.makeIterator()
            while let byte = utf8.next() {
                guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
                guard let high = utf8.next(), let low = utf8.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else {
                    return nil
                }
                bytes.append(value)
            }
            return String(validating: bytes, as: UTF8.self)
        }
    }
}

/// A default value's canonical text as the stored value, converted as generated Swift converts the
/// literal it writes for it.
enum DefaultValueText {
    static func sqlValue(_ text: String, type: AttributeType) throws(VersionTextReader.Failure) -> SQLValue {
        let value: (any QueryableAttributeType)?
        switch type {
        case .bool: value = text == "true" ? true : text == "false" ? false : nil
        case .int16: value = Int16(text)
        case .int32: value = Int32(text)
        case .int64: value = Int64(text)
        case .int: value = Int(text)
        case .double: value = Double(text)
        case .float: value = Float(text)
        case .decimal: value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .string: value = text
        case .date: value = Double(text).map(Date.init(timeIntervalSinceReferenceDate:))
        case .data: value = Data(base64Encoded: text)
        case .uuid: value = UUID(uuidString: text)
        case .url: value = URL(string: text)
        case .codable: value = nil
        }
        guard let value else { throw .init(reason: "'\(text)' is not a default of type \(type.rawValue)") }
        return value.sqlValue
    }
}
