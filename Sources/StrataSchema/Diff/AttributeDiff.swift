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
            let lossless = Self.isLossless(old.type, new.type)
            add(.changeAttribute, "type", old.type.rawValue, new.type.rawValue, lossless ? .lightweight : .heavyweight,
                lossless ? "every old value converts without loss" : "existing values could lose information")
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

    /// Whether every value of `from` converts to `to` without loss: wider integers (Bool counts as
    /// the narrowest), integers to Double (and Bool or Int16 to Float), integers to String or
    /// Decimal, Float to Double, Date and Double either way (both seconds), Decimal or URL to
    /// String, UUID to Data. The runtime's `AttributeConversion` infers exactly these.
    static func isLossless(_ from: AttributeType, _ to: AttributeType) -> Bool {
        if from == to { return true }
        let rank: [AttributeType: Int] = [.bool: 1, .int16: 2, .int32: 3, .int64: 4, .int: 4]
        if let a = rank[from] {
            if let b = rank[to] { return a <= b }
            switch to {
            case .double, .string, .decimal: return true
            case .float: return a <= 2
            default: return false
            }
        }
        let pairs: Set<[AttributeType]> = [[.float, .double], [.date, .double], [.double, .date], [.decimal, .string], [.url, .string], [.uuid, .data]]
        return pairs.contains([from, to])
    }
}
