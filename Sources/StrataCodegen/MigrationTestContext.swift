import StrataSchema

/// The template values of a model's generated migration tests: for every older version, objects
/// that satisfy its constraints (two of each entity, every attribute given a distinct value, every
/// to-one and many-to-many relationship set), the steps the chain takes from it, and how many
/// objects of each current entity the migration must keep.
enum MigrationTestContext {
    /// One node per version the chain leads from to the current one, oldest first.
    static func versions(_ model: Model) -> [TemplateNode] {
        guard let current = model.currentVersion else { return [] }
        return model.versions.sorted { $0.name < $1.name }.compactMap { version -> TemplateNode? in
            let path = model.manifest.chain.path(from: version.name)
            guard version.name != current.name, path.last == current.name else { return nil }
            // A version sealed with the current one's lock describes the same store: it opens
            // without migrating, so there is nothing to test.
            if let lock = version.versionLock?.entries.mapValues(\.value), lock == current.versionLock?.entries.mapValues(\.value) { return nil }
            let configuration = seededConfiguration(version, model: model)
            let seeds = seedObjects(version, model: model, configuration: configuration)
            let steps = zip(path, path.dropFirst()).map { from, to -> String in
                let custom = model.version(named: to)?.migration(from: from)?.entities.contains { $0.isCustom && !$0.isDeleted } == true
                return ".\(custom ? "heavyweight" : "lightweight")(sourceVersion: \(SwiftSyntax.stringLiteral(from)), "
                    + "destinationVersion: \(SwiftSyntax.stringLiteral(to)))"
            }
            return TemplateNode([
                "name": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name),
                "function": SwiftSyntax.identifier("migratesFrom" + version.name),
                "seeds": seeds.map(\.literal), "steps": steps,
                "configurationArgument": configuration.map { ", configuration: " + SwiftSyntax.stringLiteral($0) } ?? "",
                "counts": expectedCounts(seeds, from: version, path: path, model: model, current: current),
            ])
        }
    }

    /// One object to seed.
    private struct Seed {
        let entity: String
        let id: Int
        let literal: String
    }

    /// The configuration whose storage the test seeds: nil (`Default`) when that storage holds
    /// entities of the version, otherwise the first configuration that does.
    private static func seededConfiguration(_ version: SchemaVersion, model: Model) -> String? {
        guard defaultEntities(version, model: model).isEmpty else { return nil }
        let names = Set(version.entities.map(\.name))
        return model.manifest.configurations.first { configuration in configuration.entities.contains { names.contains($0.value) } }?.name.value
    }

    /// Two objects of every concrete entity the seeded storage holds, ids unique in the version.
    private static func seedObjects(_ version: SchemaVersion, model: Model, configuration: String?) -> [Seed] {
        let stored = configuration.map { name in
            Set(model.manifest.configurations.first { $0.name.value == name }?.entities.map(\.value) ?? [])
        } ?? defaultEntities(version, model: model)
        let concrete = version.entities.filter { !$0.isAbstract && stored.contains($0.name) }.sorted { $0.name < $1.name }
        var ids: [String: [Int]] = [:]
        var next = 1
        for entity in concrete {
            ids[entity.name] = [next, next + 1]
            next += 2
        }
        // The objects of an entity and its subentities, which a relationship to it may name.
        let objects = { (name: String) -> [Int] in
            concrete.filter { $0.name == name || version.ancestors(of: $0).contains { $0.name == name } }.flatMap { ids[$0.name] ?? [] }.sorted()
        }
        var seeds: [Seed] = []
        for entity in concrete {
            let lineage = version.ancestors(of: entity).reversed() + [entity]
            for (index, id) in (ids[entity.name] ?? []).enumerated() {
                let attributes = lineage.flatMap(\.attributes).filter { $0.isStored && $0.type != .codable }.map { attribute in
                    SwiftSyntax.stringLiteral(attribute.name) + ": " + value(of: attribute, entity: entity.name, id: id)
                }
                var relationships: [String] = []
                for owner in lineage {
                    for relationship in owner.relationships where writes(relationship, of: owner.name, in: version) {
                        let targets = objects(relationship.destination)
                        guard !targets.isEmpty else { continue }
                        relationships.append(SwiftSyntax.stringLiteral(relationship.name) + ": [\(targets[index % targets.count])]")
                    }
                }
                var literal = "SeedObject(\(SwiftSyntax.stringLiteral(entity.name)), id: \(id), [" + (attributes.isEmpty ? ":" : attributes.joined(separator: ", ")) + "]"
                if !relationships.isEmpty { literal += ", relationships: [" + relationships.joined(separator: ", ") + "]" }
                seeds.append(Seed(entity: entity.name, id: id, literal: literal + ")"))
            }
        }
        return seeds
    }

    /// The entities a `Default` storage of the version holds.
    private static func defaultEntities(_ version: SchemaVersion, model: Model) -> Set<String> {
        let names = Set(version.entities.map(\.name))
        guard let listed = model.manifest.configurations.first(where: { $0.name.value == "Default" }) else {
            let elsewhere = Set(model.manifest.configurations.flatMap { $0.entities.map(\.value) })
            return names.subtracting(elsewhere)
        }
        return names.intersection(listed.entities.map(\.value))
    }

    /// Which side of a relationship the seed writes: every to-one, and one side of a many-to-many
    /// (the seeder writes the other); a one-to-one only from one side.
    private static func writes(_ relationship: Relationship, of owner: String, in version: SchemaVersion) -> Bool {
        let inverse = version.entity(named: relationship.destination).flatMap { destination in
            (version.ancestors(of: destination) + [destination]).flatMap(\.relationships).first { $0.name == relationship.inverse }
        }
        guard let inverse else { return false }
        if relationship.kind.isToMany != inverse.kind.isToMany { return !relationship.kind.isToMany }
        return (owner, relationship.name) <= (relationship.destination, inverse.name)
    }

    /// A value of an attribute's type, distinct for every object.
    private static func value(of attribute: Attribute, entity: String, id: Int) -> String {
        switch attribute.type {
        case .bool: return id % 2 == 0 ? "true" : "false"
        case .int16: return "Int16(\(id))"
        case .int32: return "Int32(\(id))"
        case .int64: return "Int64(\(id))"
        case .int: return "\(id)"
        case .double: return "Double(\(id)) + 0.5"
        case .float: return "Float(\(id))"
        case .decimal: return "Decimal(\(id))"
        case .string: return SwiftSyntax.stringLiteral("\(entity).\(attribute.name) \(id)")
        case .date: return "Date(timeIntervalSince1970: \(id * 86_400))"
        case .data: return "Data([\(id % 256)])"
        case .uuid:
            let digits = String(id, radix: 16)
            return "UUID(uuidString: \"00000000-0000-0000-0000-\(String(repeating: "0", count: max(0, 12 - digits.count)) + digits)\")!"
        case .url: return "URL(string: \"https://example.com/\(id)\")!"
        case .codable: return "nil"
        }
    }

    /// `From<Entity>()` checks for the current entities: exactly the objects every step carries
    /// over, or at most those seeded where a custom step produces the entity (it may leave some out).
    private static func expectedCounts(_ seeds: [Seed], from version: SchemaVersion, path: [String], model: Model,
                                       current: SchemaVersion) -> [TemplateNode] {
        var carried: [String: Int] = [:]  // current entity name → objects
        var uncertain: Set<String> = []
        var seededCounts: [String: Int] = [:]  // current entity name → objects seeded for a custom step
        for (entity, count) in Dictionary(grouping: seeds, by: \.entity).mapValues(\.count) {
            var name: String? = entity
            var custom = false
            for (from, to) in zip(path, path.dropFirst()) {
                guard let current = name, let next = model.version(named: to) else { break }
                let hints = next.migration(from: from)
                if hints?.entities.contains(where: { $0.isDeleted && $0.name.value == current }) == true { name = nil; break }
                let renamed = hints?.entities.first { $0.renamedFrom?.value == current && !$0.isDeleted }?.name.value
                let mapped = renamed ?? (next.entity(named: current) != nil ? current : nil)
                if let mapped, hints?.hint(forEntity: mapped)?.isCustom == true { custom = true }
                name = mapped
            }
            guard let name else { continue }
            if custom {
                uncertain.insert(name)
                seededCounts[name, default: 0] += count
            } else {
                carried[name, default: 0] += count
            }
        }
        let stored = defaultEntities(current, model: model)
        return current.entities.filter { stored.contains($0.name) }.sorted { $0.name < $1.name }.map { entity -> TemplateNode in
            let subtree = current.entities.filter { $0.name == entity.name || current.ancestors(of: $0).contains { $0.name == entity.name } }.map(\.name)
            // A custom step may leave objects out: at most as many as were seeded remain.
            let decided = subtree.contains(where: uncertain.contains)
            let count = subtree.reduce(0) { $0 + (carried[$1] ?? 0) + (uncertain.contains($1) ? seededCounts[$1, default: 0] : 0) }
            return TemplateNode(["type": SwiftSyntax.identifier(entity.name), "count": count, "comparison": decided ? "<=" : "=="])
        }
    }
}
