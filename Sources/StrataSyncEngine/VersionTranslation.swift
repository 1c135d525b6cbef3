import Strata
import StrataSyncCore

/// How changes travel between a server at its model's current version and a client at an older
/// sealed version: each step of the migration chain between them maps entity and property names
/// (the renames its migration block names; the same name otherwise) and converts the values whose
/// types it changed. Down (to the client) a change loses what the client's version lacks; up (to
/// the server) it gains the server's names, and what the client's version cannot see is not in
/// it, so it stays as it was.
package struct VersionTranslation: Sendable {
    /// The client's version.
    package let clientVersion: String
    /// The server's version.
    package let serverVersion: String
    /// The steps from the client's version up to the server's, in order.
    let steps: [Step]

    /// One migration step: for each entity of the newer version that comes from one of the older.
    struct Step: Sendable {
        let from: String
        let to: String
        /// By the newer entity name.
        let entities: [String: EntityStep]
        /// Older entity name to newer.
        let newerNames: [String: String]
        /// Older entities the step drops.
        let removedEntities: Set<String>
        /// Whether the step adds an entity, or a property to an entity it keeps.
        let adds: Bool
    }

    /// One entity across a step.
    struct EntityStep: Sendable {
        let olderName: String
        /// Newer property name to the older one, for attributes and relationships both versions have.
        let olderProperties: [String: String]
        /// Older property name to the newer one.
        let newerProperties: [String: String]
        /// Properties of the older version the newer lacks (removed by the step).
        let removed: Set<String>
        /// By the newer attribute name, for attributes whose type the step changed.
        let conversions: [String: SyncValueConversion]
    }

    /// A change as the client's version names and holds it; nil when its version lacks the entity.
    package func down(_ change: SyncChange) -> SyncChange? {
        var change = change
        for step in steps.reversed() {
            guard let entity = step.entities[change.entity] else { return nil }
            change = SyncChange(entity: entity.olderName, id: change.id, state: entity.down(change.state))
        }
        return change
    }

    /// Whether the server's version has entities or properties the client's lacks.
    package var hidesSomething: Bool { steps.contains(where: \.adds) }

    /// Whether the client's version has the server's entity `entity` and, when `property` is
    /// given, that property of it (both by the server's names).
    package func sees(entity: String, property: String? = nil) -> Bool {
        var entity = entity
        var property = property
        for step in steps.reversed() {
            guard let entityStep = step.entities[entity] else { return false }
            entity = entityStep.olderName
            if let name = property {
                guard let older = entityStep.olderProperties[name] else { return false }
                property = older
            }
        }
        return true
    }

    /// A change as the server's version names and holds it; nil when the server's version no
    /// longer has the entity. Names the client's version does not have pass unchanged, for the
    /// server's checks to refuse.
    package func up(_ change: SyncChange) -> SyncChange? {
        var change = change
        for step in steps {
            guard let newer = step.newerNames[change.entity], let entity = step.entities[newer] else {
                if step.removedEntities.contains(change.entity) { return nil }
                continue
            }
            change = SyncChange(entity: newer, id: change.id, state: entity.up(change.state))
        }
        return change
    }
}

extension VersionTranslation.EntityStep {
    /// A state with the older version's names and types; a value the older type cannot hold is
    /// left out (the client keeps what it had).
    func down(_ state: SyncedObject) -> SyncedObject {
        state.renaming { name in olderProperties[name] } converting: { newer, _, value in
            guard let conversion = conversions[newer] else { return value }
            return conversion.down(value)
        }
    }

    /// A state with the newer version's names and types; what the step removed is left out.
    func up(_ state: SyncedObject) -> SyncedObject {
        state.renaming { name in removed.contains(name) ? nil : newerProperties[name] ?? name } converting: { _, newer, value in
            conversions[newer].map { $0.up(value) } ?? value
        }
    }
}
