import Strata
import StrataSyncCore

/// Why a server cannot sync with a client's model version; nothing of the client's request is
/// applied. It becomes ``StrataError/syncVersionRefused(clientVersion:serverVersion:reason:)``.
package struct VersionRefusal: Error, Equatable, Sendable {
    /// The client's version.
    package let clientVersion: String
    /// The server's current version.
    package let serverVersion: String
    /// What stands between them.
    package let reason: String

    /// A refusal of `clientVersion` by a server at `serverVersion`, saying why.
    package init(clientVersion: String, serverVersion: String, reason: String) {
        self.clientVersion = clientVersion
        self.serverVersion = serverVersion
        self.reason = reason
    }

    /// The refusal as the error a client reports.
    package var error: StrataError {
        .syncVersionRefused(clientVersion: clientVersion, serverVersion: serverVersion, reason: reason)
    }
}

extension VersionTranslation {
    /// How a server whose model is `history` syncs with a client at `clientVersion` sealed with
    /// `clientLock`: nil at the server's own version, a translation for an older sealed version
    /// whose every step can be reversed; a refusal otherwise (a version the server does not know
    /// or has after its own, another lock under the same name, a custom step or a change of kind
    /// on the way).
    package static func plan(history: SchemaHistory, clientVersion: String, clientLock: VersionLock?) throws(VersionRefusal) -> VersionTranslation? {
        let server = history.currentVersion.name
        func refuse(_ reason: String) -> VersionRefusal {
            VersionRefusal(clientVersion: clientVersion, serverVersion: server, reason: reason)
        }
        let chain = history.migrationChain.versions
        guard let version = history.version(named: clientVersion) else {
            throw refuse("the server's model \(history.modelName) has no version \(clientVersion) (it has \(history.versionNames.joined(separator: ", "))); "
                + "a device whose app is newer than the server syncs once the server runs its version")
        }
        if let clientLock, clientLock != version.versionLock {
            let names = Set(clientLock.entries.keys).union(version.versionLock.entries.keys)
                .filter { clientLock.entries[$0] != version.versionLock.entries[$0] }.sorted()
            throw refuse("the device's \(clientVersion) is not the \(clientVersion) the server sealed: the entities \(names.joined(separator: ", ")) differ; "
                + "a version must never change once an app with it has shipped")
        }
        if clientVersion == server { return nil }
        if let clientIndex = chain.firstIndex(of: clientVersion), let serverIndex = chain.firstIndex(of: server), clientIndex > serverIndex {
            throw refuse("\(clientVersion) comes after \(server) in the migration chain; the device syncs once the server runs \(clientVersion)")
        }
        guard let path = history.migrationPath(from: clientVersion) else {
            throw refuse("the migration chain does not lead from \(clientVersion) to \(server)")
        }
        var steps: [Step] = []
        for (older, newer) in zip(path, path.dropFirst()) {
            guard let from = history.version(named: older), let to = history.version(named: newer) else {
                throw refuse("the server's model lacks the version \(older) or \(newer)")
            }
            do {
                steps.append(try Step(from: from, to: to))
            } catch {
                throw refuse("the step \(older) → \(newer) \(error.reason), which cannot be translated back for devices at \(older); they must update the app")
            }
        }
        return VersionTranslation(clientVersion: clientVersion, serverVersion: server, steps: steps)
    }
}

/// What makes a step impossible to translate, in words that follow "the step V1 → V2".
struct UntranslatableStep: Error {
    let reason: String
}

extension VersionTranslation.Step {
    /// The step from `older` to `newer`, as its migration block and the two versions say.
    init(from older: ModelVersion, to newer: ModelVersion) throws(UntranslatableStep) {
        let hints = newer.migrations.first { $0.sourceVersion == older.name }
        if let custom = hints?.entities.first(where: { $0.isCustom && !$0.isDeleted }) {
            throw UntranslatableStep(reason: "makes \(custom.name) with a custom migration step")
        }
        var entities: [String: VersionTranslation.EntityStep] = [:]
        var newerNames: [String: String] = [:]
        var adds = false
        for entity in newer.entities {
            let hint = hints?.entities.first { $0.name == entity.name && !$0.isDeleted }
            let olderName = hint?.renamedFrom ?? entity.name
            guard hints?.entities.contains(where: { $0.name == olderName && $0.isDeleted }) != true,
                  let olderEntity = older.entity(named: olderName) else {
                adds = true
                continue
            }
            let properties = Properties(entity, in: newer)
            let step = try VersionTranslation.EntityStep(
                from: Properties(olderEntity, in: older), to: properties, renames: hint?.renamedProperties ?? [:],
                olderName: olderName, newerName: entity.name)
            if step.olderProperties.count < properties.kinds.count { adds = true }
            entities[entity.name] = step
            newerNames[olderName] = entity.name
        }
        self.init(from: older.name, to: newer.name, entities: entities, newerNames: newerNames,
                  removedEntities: Set(older.entities.map(\.name)).subtracting(newerNames.keys), adds: adds)
    }
}

extension VersionTranslation.EntityStep {
    init(from older: Properties, to newer: Properties, renames: [String: String], olderName: String, newerName: String) throws(UntranslatableStep) {
        var olderProperties: [String: String] = [:]
        var conversions: [String: SyncValueConversion] = [:]
        for (name, kind) in newer.kinds {
            let olderProperty = renames[name] ?? name
            guard let olderKind = older.kinds[olderProperty] else { continue }
            switch (olderKind, kind) {
            case (.attribute(let oldType, let oldCounter), .attribute(let newType, let newCounter)):
                guard oldCounter == newCounter else {
                    throw UntranslatableStep(reason: "changes whether \(newerName).\(name) merges by adding")
                }
                guard let conversion = SyncValueConversion(from: oldType, to: newType) else {
                    throw UntranslatableStep(reason: "changes \(newerName).\(name) from \(oldType.rawValue) to \(newType.rawValue)")
                }
                if oldType != newType { conversions[name] = conversion }
            case (.relationship(let oldKind), .relationship(let newKind)):
                guard oldKind == newKind else {
                    throw UntranslatableStep(reason: "changes \(newerName).\(name) from \(oldKind.rawValue) to \(newKind.rawValue)")
                }
            default:
                throw UntranslatableStep(reason: "turns \(olderName).\(olderProperty) into \(newerName).\(name) of another kind")
            }
            olderProperties[name] = olderProperty
        }
        self.init(olderName: olderName, olderProperties: olderProperties,
                  newerProperties: Dictionary(olderProperties.map { ($1, $0) }, uniquingKeysWith: { first, _ in first }),
                  removed: Set(older.kinds.keys).subtracting(olderProperties.values), conversions: conversions)
    }
}

/// An entity's properties (its ancestors' too), by name, with what kind of property each is.
struct Properties {
    enum Kind: Equatable {
        case attribute(AttributeType, counter: Bool)
        case relationship(RelationshipKind)
    }

    var kinds: [String: Kind] = [:]

    init(_ entity: EntityDescription, in version: ModelVersion) {
        // The entity's own properties first: a name an ancestor has too is the entity's.
        for next in version.lineage(of: entity).reversed() {
            for attribute in next.attributes where kinds[attribute.name] == nil {
                kinds[attribute.name] = .attribute(attribute.type, counter: attribute.merge == .add)
            }
            for relationship in next.relationships where kinds[relationship.name] == nil {
                kinds[relationship.name] = .relationship(relationship.kind)
            }
        }
    }
}
