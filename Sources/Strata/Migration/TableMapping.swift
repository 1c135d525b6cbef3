import Foundation

/// How one table of the destination version is filled from one table of the source version:
/// where each column's values come from, which rows are kept, and whether `ALTER TABLE` can do it
/// without moving the rows.
struct TableMapping {
    /// Where a new column's values come from.
    enum Source: Hashable {
        /// The row id.
        case id
        /// The entity code, translated from the old one (old code to new code); `constant` when the
        /// old table had no entity column.
        case entityCode(map: [Int64: Int64], constant: Int64?)
        /// An old column, converted, with `fallback` for NULLs when the new column is required.
        case column(String, AttributeConversion, fallback: SQLValue?)
        /// The same value in every row: an added column's default, or NULL.
        case constant(SQLValue)
        /// A new random UUID in each row (an added `initial: uuid` attribute).
        case randomUUID
    }

    let new: TableLayout
    let old: TableLayout
    /// The SQL the step is written in.
    let dialect: SQLDialect
    let newDefinition: TableDefinition
    let oldDefinition: TableDefinition
    /// One source per column of `newDefinition`, in order.
    let sources: [Source]
    /// The old entity codes whose rows the inferred part copies; nil when every row is copied.
    let copiedCodes: [Int64]?
    /// New entities whose rows the app's custom steps produce, with the old entity and its codes.
    let customMembers: [(entity: String, source: String, codes: [Int64]?)]

    init(_ new: TableLayout, from old: TableLayout, planner: MigrationPlanner) throws(MigrationPlanningError) {
        self.new = new
        self.old = old
        dialect = planner.dialect
        newDefinition = SchemaSQL.table(new, layout: planner.newLayout, dialect: dialect)
        oldDefinition = SchemaSQL.table(old, layout: planner.oldLayout, dialect: dialect)
        let oldCodes = Dictionary(old.entities.enumerated().map { ($1, Int64($0 + 1)) }, uniquingKeysWith: { first, _ in first })
        var codeMap: [Int64: Int64] = [:]
        var custom: [(String, String, [Int64]?)] = []
        var constantCode: Int64?
        for (offset, member) in new.entities.enumerated() {
            guard let origin = planner.sources[member], let oldCode = oldCodes[origin] else { continue }
            let newCode = Int64(offset + 1)
            if planner.customEntities.contains(member) {
                custom.append((member, origin, old.hasEntityColumn ? [oldCode] : nil))
            } else {
                codeMap[oldCode] = newCode
            }
            if !old.hasEntityColumn { constantCode = newCode }
        }
        customMembers = custom
        let everyOldRowCopied = old.entities.allSatisfy { oldCodes[$0].map { codeMap[$0] != nil } ?? false }
        copiedCodes = everyOldRowCopied ? nil : codeMap.keys.sorted()
        var sources: [Source] = []
        for column in newDefinition.columns {
            sources.append(try Self.source(of: column.name, in: new, from: old, codeMap: codeMap, constantCode: constantCode,
                                           isRequired: column.isRequired, planner: planner))
        }
        self.sources = sources
    }

    /// Where one new column's values come from.
    private static func source(of column: String, in new: TableLayout, from old: TableLayout, codeMap: [Int64: Int64], constantCode: Int64?,
                               isRequired: Bool, planner: MigrationPlanner) throws(MigrationPlanningError) -> Source {
        if column == StoreLayout.idColumn { return .id }
        if column == StoreLayout.entityColumn {
            return .entityCode(map: old.hasEntityColumn ? codeMap : [:], constant: old.hasEntityColumn ? nil : constantCode)
        }
        if let layout = new.columns.first(where: { $0.name == column }) {
            let oldProperty = planner.oldPropertyName(layout.property, ofEntity: layout.owner)
            let oldColumn = Self.oldColumn(of: layout, property: oldProperty, in: new, from: old, planner: planner)
            if let attribute = layout.attribute {
                return try attributeSource(attribute, owner: layout.owner, oldColumn: oldColumn, isRequired: isRequired, planner: planner)
            }
            guard let oldColumn else {
                let oldRelationship = planner.sources[layout.owner].flatMap { planner.oldLayout.relationships[$0] }?.first { $0.name == oldProperty }
                // A custom step decides about the object; its values carry no relationships, so this one starts empty.
                if let oldRelationship, oldRelationship.isToMany, !planner.customEntities.contains(layout.owner) {
                    throw MigrationPlanningError("\(layout.owner).\(layout.property) changes from to-many to to-one, which could cut an object's "
                                                 + "links to one; migrate \(layout.owner) with a custom step")
                }
                return .constant(.null)
            }
            guard oldColumn.relationship != nil else {
                throw MigrationPlanningError("\(layout.owner).\(layout.property) was an attribute and is now a relationship; "
                                             + "that is not inferred")
            }
            return .column(oldColumn.name, .unchanged, fallback: nil)
        }
        // An order column of an ordered to-many whose inverse is stored in this table.
        for relationship in planner.newLayout.relationships.values.flatMap({ $0 }) {
            guard case .inverseForeignKey(_, column?) = relationship.storage,
                  planner.newLayout.entity(relationship.destination)?.table == new.name else { continue }
            let oldName = planner.oldPropertyName(relationship.name, ofEntity: relationship.owner)
            let oldRelationship = planner.sources[relationship.owner].flatMap { planner.oldLayout.relationships[$0] }?.first { $0.name == oldName }
            if case .inverseForeignKey(_, let oldOrder?)? = oldRelationship?.storage,
               SchemaSQL.orderColumns(of: old, layout: planner.oldLayout).contains(oldOrder) {
                return .column(oldOrder, .unchanged, fallback: nil)
            }
            return .constant(.null)
        }
        return .constant(.null)
    }

    /// The column of `old` a new column's values come from: the owner's own, when the owner's rows
    /// were in `old`; otherwise, for rows of an entity that moved into the hierarchy, the column its
    /// old lineage kept the property in.
    private static func oldColumn(of layout: ColumnLayout, property: String, in new: TableLayout, from old: TableLayout,
                                  planner: MigrationPlanner) -> ColumnLayout? {
        if let source = planner.sources[layout.owner].flatMap({ planner.oldLayout.entity($0) }), source.table == old.name {
            return source.column(forProperty: property)
        }
        for member in new.entities where planner.newLayout.entity(member)?.lineage.contains(where: { $0.name == layout.owner }) == true {
            if let source = planner.sources[member].flatMap({ planner.oldLayout.entity($0) }), source.table == old.name,
               let column = source.column(forProperty: property) {
                return column
            }
        }
        return nil
    }

    /// Where an attribute column's values come from: the old attribute, converted without loss, or
    /// the default of an added one.
    private static func attributeSource(_ attribute: AttributeDescription, owner: String, oldColumn: ColumnLayout?, isRequired: Bool,
                                        planner: MigrationPlanner) throws(MigrationPlanningError) -> Source {
        let subject = "\(owner).\(attribute.name)"
        let custom = planner.customEntities.contains(owner)
        guard let oldColumn else {
            if let value = attribute.defaultValue { return .constant(value) }
            switch attribute.initialValue {
            case .now?: return .constant(Date().sqlValue)
            case .uuid?: return .randomUUID
            case nil: break
            }
            if !isRequired || custom { return .constant(.null) }
            throw MigrationPlanningError("\(subject) is added as a required attribute without a default; "
                                         + "give it a default, make it optional, or migrate \(owner) with a custom step")
        }
        guard let oldAttribute = oldColumn.attribute else {
            throw MigrationPlanningError("\(subject) was a relationship and is now an attribute; that is not inferred")
        }
        guard let conversion = AttributeConversion(from: oldAttribute.type, to: attribute.type) else {
            if custom { return .constant(.null) }
            throw MigrationPlanningError("\(subject) changes from \(oldAttribute.type.rawValue) to \(attribute.type.rawValue), "
                                         + "which can lose information; migrate \(owner) with a custom step")
        }
        var fallback: SQLValue?
        if isRequired && oldAttribute.isOptional {
            guard let value = attribute.defaultValue else {
                if custom { return .constant(.null) }
                throw MigrationPlanningError("\(subject) becomes required without a default, so rows where it is nil have no value; "
                                             + "give it a default or migrate \(owner) with a custom step")
            }
            fallback = value
        }
        return .column(oldColumn.name, conversion, fallback: fallback)
    }

    /// Whether `ALTER TABLE` can make the change: every row stays, no custom step, no converted or
    /// newly required column, and no column name that is both dropped (or renamed away) and reused.
    var canAlterInPlace: Bool {
        guard customMembers.isEmpty, copiedCodes == nil, new.hasEntityColumn == old.hasEntityColumn else { return false }
        var used: Set<String> = []
        var targets: Set<String> = []
        for (column, source) in zip(newDefinition.columns, sources) {
            switch source {
            case .id:
                continue
            case .entityCode:
                continue
            case .column(let name, let conversion, let fallback):
                guard conversion.keepsStoredValue(in: dialect), fallback == nil, let oldColumn = oldDefinition.column(named: name),
                      oldColumn.type == column.type, oldColumn.isRequired == column.isRequired, used.insert(name).inserted else { return false }
                if name != column.name { targets.insert(column.name) }
            case .randomUUID:
                return false
            case .constant(let value):
                let literal = dialect.literal(value, for: column.attributeType)
                if column.isRequired && (value.isNull || literal == nil) { return false }
                if !column.isRequired, !value.isNull, literal == nil { return false }
                targets.insert(column.name)
            }
        }
        // A name taken by a renamed or added column must not be an old column's name.
        return targets.allSatisfy { oldDefinition.column(named: $0) == nil }
    }
}
