/// Checks what a version says about syncing: a class hierarchy syncs as one, a synced entity's
/// relationships lead to synced entities, `owner:` names a stored `String` attribute of a synced
/// entity, and `merge: add` marks an integer attribute of one.
struct SyncValidator {
    let version: SchemaVersion

    func validate(into diagnostics: inout Diagnostics) {
        for entity in version.entities {
            checkHierarchy(entity, into: &diagnostics)
            if let owner = entity.owner { checkOwner(owner, of: entity, into: &diagnostics) }
            for attribute in entity.attributes where attribute.merge != nil {
                checkMerge(attribute, of: entity, into: &diagnostics)
            }
            guard entity.isSynced else { continue }
            for relationship in entity.relationships {
                guard let destination = version.entity(named: relationship.destination), !destination.isSynced else { continue }
                diagnostics.error("relationship '\(entity.name).\(relationship.name)' leads to '\(destination.name)', which does not sync, "
                                  + "from '\(entity.name)', which does; a synced object can only relate to synced ones "
                                  + "(give '\(destination.name)' sync: true)", at: relationship.location)
            }
        }
    }

    /// A subentity shares its root's table, so it cannot sync when its parent does not, or the
    /// other way round.
    private func checkHierarchy(_ entity: Entity, into diagnostics: inout Diagnostics) {
        guard let own = entity.sync, let parentName = entity.parent?.value, let parent = version.entity(named: parentName),
              parent.isSynced != own.value else { return }
        diagnostics.error("entity '\(entity.name)' says sync: \(own.value), but its parent '\(parent.name)' "
                          + (parent.isSynced ? "syncs" : "does not sync") + "; a class hierarchy syncs as one, so set sync: on its root",
                          at: own.location)
    }

    private func checkOwner(_ owner: Located<String>, of entity: Entity, into diagnostics: inout Diagnostics) {
        guard entity.isSynced else {
            diagnostics.error("entity '\(entity.name)' names an owner, but it does not sync; owners are the accounts that sync it "
                              + "(add sync: true)", at: owner.location)
            return
        }
        let attributes = ([entity] + version.ancestors(of: entity)).flatMap(\.attributes)
        guard let attribute = attributes.first(where: { $0.name == owner.value }) else {
            diagnostics.error("owner '\(owner.value)' of entity '\(entity.name)' is not an attribute of '\(entity.name)'"
                              + Suggestion.hint(for: owner.value, in: attributes.map(\.name)), at: owner.location)
            return
        }
        if !attribute.isStored || attribute.type != .string || !(attribute.isOptional || attribute.defaultValue != nil) {
            diagnostics.error("owner '\(owner.value)' of entity '\(entity.name)' must be a stored String attribute that is optional or has "
                              + "a default, which the server fills with the account; it is "
                              + Self.describe(attribute), at: owner.location)
        }
    }

    private func checkMerge(_ attribute: Attribute, of entity: Entity, into diagnostics: inout Diagnostics) {
        let integers: Set<AttributeType> = [.int16, .int32, .int64, .int]
        if !integers.contains(attribute.type) || !attribute.isStored {
            diagnostics.error("'merge: add' of attribute '\(entity.name).\(attribute.name)' makes it a counter, which must be a stored "
                              + "integer (Int16, Int32, Int64 or Int); it is " + Self.describe(attribute, sayingDefault: false), at: attribute.location)
        } else if !entity.isSynced {
            diagnostics.error("'merge: add' of attribute '\(entity.name).\(attribute.name)' says how changes from several devices combine, "
                              + "but '\(entity.name)' does not sync (add sync: true)", at: attribute.location)
        } else if attribute.isUnique {
            diagnostics.error("attribute '\(entity.name).\(attribute.name)' cannot be both unique and a counter ('merge: add'): "
                              + "increments made apart would clash", at: attribute.location)
        }
    }

    private static func describe(_ attribute: Attribute, sayingDefault: Bool = true) -> String {
        let article = attribute.type.rawValue.hasPrefix("Int") ? "an " : "a "
        let kind = attribute.notStoredKind.map { "a \($0) " } ?? (attribute.isOptional ? "an optional " : article)
        let noDefault = sayingDefault && attribute.isStored && !attribute.isOptional && attribute.defaultValue == nil
        return kind + attribute.type.rawValue + (noDefault ? " without a default" : "")
    }
}
