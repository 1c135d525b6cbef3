/// The steps for one attribute that exists in both versions.
struct AttributeDiff {
    let entity: String
    let old: Attribute
    let new: Attribute

    func steps() -> [MigrationStep] {
        var steps: [MigrationStep] = []
        func add(_ action: MigrationStep.Action, _ field: String, _ before: String?, _ after: String?, _ weight: MigrationWeight, _ note: String? = nil) {
            steps.append(VersionDiff.step(action, entity, property: new.name, field: field, old: before, new: after, weight: weight, note: note))
        }
        let columnFollowsName = old.storageKey == old.name && new.storageKey == new.name
        if old.name != new.name {
            let note = old.storageKey == new.storageKey ? "Swift name only" : columnFollowsName ? "column renamed" : nil
            add(.renameAttribute, "name", old.name, new.name, .lightweight, note)
        }
        if old.storageKey != new.storageKey, !(columnFollowsName && old.name != new.name) {
            add(.renameAttribute, "storageKey", old.storageKey, new.storageKey, .lightweight)
        }
        if old.type != new.type {
            let widening = Self.isWidening(old.type, new.type)
            add(.changeAttribute, "type", old.type.rawValue, new.type.rawValue, widening ? .lightweight : .heavyweight,
                widening ? "every old value fits" : "existing values must be converted")
        }
        if old.isOptional != new.isOptional {
            if new.isOptional {
                add(.changeAttribute, "optional", "false", "true", .lightweight)
            } else if new.defaultValue != nil {
                add(.changeAttribute, "optional", "true", "false", .lightweight, "nil values take the default")
            } else {
                add(.changeAttribute, "optional", "true", "false", .heavyweight, "existing nil values need a value: give it a default")
            }
        }
        if old.defaultValue != new.defaultValue {
            add(.changeAttribute, "default", old.defaultValue.map(DefaultValueParser.quoted), new.defaultValue.map(DefaultValueParser.quoted), .lightweight,
                "applies to new objects")
        }
        if old.initial != new.initial {
            add(.changeAttribute, "initial", old.initial?.rawValue, new.initial?.rawValue, .lightweight, "applies to new objects")
        }
        if old.isIndexed != new.isIndexed {
            add(.changeAttribute, "indexed", String(old.isIndexed), String(new.isIndexed), .lightweight)
        }
        if old.isUnique != new.isUnique {
            add(.changeAttribute, "unique", String(old.isUnique), String(new.isUnique), .lightweight,
                new.isUnique ? "fails if existing rows repeat a value" : nil)
        }
        if old.coder != new.coder {
            add(.changeAttribute, "coder", old.coder?.rawValue, new.coder?.rawValue, .heavyweight, "stored values must be re-encoded")
        }
        return steps
    }

    /// Integer widenings keep every value: Int16 → Int32 → Int64/Int, and Int64 ↔ Int.
    static func isWidening(_ from: AttributeType, _ to: AttributeType) -> Bool {
        let width: [AttributeType: Int] = [.int16: 16, .int32: 32, .int64: 64, .int: 64]
        guard let a = width[from], let b = width[to] else { return false }
        return a <= b
    }
}
