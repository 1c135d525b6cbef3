import StrataSchema

/// An older version's descriptors in the text form the runtime reads on first use
/// (`ModelVersion(text:earlier:)`, where the form is documented): one string literal per version
/// instead of Swift code that every build of the app would type-check.
///
/// Each line carries exactly what `DescriptorCode` writes as Swift for the current version, so a
/// version reads back the same whether it is current or older.
enum VersionTextCode {
    /// Each entity's own lines (``entityLines(_:in:lock:)``), by name order, for the entities that
    /// have a lock: the part of a version's text that does not depend on earlier versions, so
    /// versions can be described on all cores before ``lines(_:configurations:entities:shared:)``
    /// joins them in order.
    static func entities(of version: SchemaVersion, locks: [String: LockHash]) -> [(name: String, lines: [String])] {
        let index = EntityIndex(version)
        return version.entities.sorted(by: { $0.name < $1.name }).compactMap { entity in
            locks[entity.name].map { (entity.name, entityLines(entity, in: index, lock: $0)) }
        }
    }

    /// The lines of a version, given its ``entities(of:locks:)``. `shared` maps an entity's own
    /// lines to the earliest version written so far that has them; an entity described exactly
    /// so before becomes a `same` line.
    static func lines(_ version: SchemaVersion, configurations: [(name: String, entities: [String])], entities: [(name: String, lines: [String])],
                      shared: inout [String: String]) -> [String] {
        var lines = ["version " + token(version.name)]
        for configuration in configurations {
            lines.append((["configuration", token(configuration.name)] + configuration.entities.map(token)).joined(separator: " "))
        }
        for (name, described) in entities {
            let key = described.joined(separator: "\n")
            if let earlier = shared[key] {
                lines.append("same " + token(name) + " " + token(earlier))
            } else {
                shared[key] = version.name
                lines += described
            }
        }
        for hints in version.migrations.sorted(by: { $0.from.value < $1.from.value }) {
            lines.append("migration " + token(hints.from.value))
            lines += hints.entities.map(hintLine)
        }
        return lines
    }

    /// An entity's line, then its attributes', relationships' and uniqueness groups' lines.
    private static func entityLines(_ entity: Entity, in version: EntityIndex, lock: LockHash) -> [String] {
        var first = ["entity", token(entity.name), "lock=" + lock.words.map { String($0, radix: 16) }.joined(separator: ",")]
        if entity.isAbstract { first.append("abstract") }
        if let parent = entity.parent { first.append("parent=" + token(parent.value)) }
        if entity.isSynced { first.append("sync") }
        if let owner = entity.owner { first.append("owner=" + token(owner.value)) }
        var lines = [first.joined(separator: " ")]
        lines += entity.attributes.filter(\.isStored).map(attributeLine)
        lines += entity.relationships.map(relationshipLine)
        lines += EntityShape.uniqueness(of: entity, in: version).map { (["uniqueness"] + $0.map(token)).joined(separator: " ") }
        return lines
    }

    private static func attributeLine(_ attribute: Attribute) -> String {
        var parts = ["attribute", token(attribute.name), attribute.type.rawValue]
        if attribute.storageKey != attribute.name { parts.append("key=" + token(attribute.storageKey)) }
        if attribute.isOptional { parts.append("optional") }
        if AttributeCode(attribute).isRequired { parts.append("required") }
        if attribute.isIndexed { parts.append("indexed") }
        if attribute.isUnique { parts.append("unique") }
        if let value = attribute.defaultValue, attribute.type != .codable {
            parts.append("default=" + token(attribute.type == .date ? DefaultDate.referenceSeconds(value) : value))
        }
        if let initial = attribute.initial { parts.append("initial=" + initial.rawValue) }
        if let merge = attribute.merge { parts.append("merge=" + merge.rawValue) }
        return parts.joined(separator: " ")
    }

    private static func relationshipLine(_ relationship: Relationship) -> String {
        var parts = ["relationship", token(relationship.name), token(relationship.destination), token(relationship.inverse)]
        if relationship.kind != .toOne { parts.append("kind=" + relationship.kind.rawValue) }
        if relationship.deleteRule != .nullify { parts.append("delete=" + relationship.deleteRule.rawValue) }
        if let minimum = relationship.minCount { parts.append("min=\(minimum)") }
        if let maximum = relationship.maxCount { parts.append("max=\(maximum)") }
        if relationship.storageKey != relationship.name { parts.append("key=" + token(relationship.storageKey)) }
        return parts.joined(separator: " ")
    }

    private static func hintLine(_ hint: EntityHint) -> String {
        var parts = ["hint", token(hint.name.value)]
        if let old = hint.renamedFrom { parts.append("renamedFrom=" + token(old.value)) }
        if hint.isDeleted { parts.append("deleted") }
        if hint.isCustom { parts.append("custom") }
        for property in hint.attributes + hint.relationships {
            if let old = property.renamedFrom { parts.append("rename=" + token(property.name.value) + ":" + token(old.value)) }
        }
        return parts.joined(separator: " ")
    }

    /// Text as one token: every byte outside `A-Z a-z 0-9 _ . + -` as `%XX`, so no token holds a
    /// separator, and the string literal holding the lines needs no escape of its own.
    static func token(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
