import Strata
import StrataSyncCore

/// Checking another node's change before anything of its batch is applied: its entity, the names
/// it sets, and the kind of every value.
extension SyncEngine {
    /// What is wrong with `change`, in words naming the entity and the field; nil when nothing is.
    package func problem(with change: SyncChange) -> String? {
        guard let entity = model.entities[change.entity] else {
            return "the entity '\(change.entity)' is not synced in \(stack.schemaHistory.modelName) \(stack.schemaHistory.currentVersion.name)"
        }
        let state = change.state
        for (name, write) in state.attributes.sorted(by: { $0.key < $1.key }) {
            if let attribute = entity.attributes.first(where: { $0.name == name }) {
                if attribute.isCounter { return "'\(entity.name).\(name)' is a counter (merge: add); send it under 'counters'" }
                if let problem = write.value.problem(for: attribute.description) { return "'\(entity.name).\(name)' \(problem)" }
            } else if entity.toOne.contains(where: { $0.name == name }) {
                switch write.value {
                case .null: continue
                case .text(let text) where GlobalID(text) != nil: continue
                default: return "'\(entity.name).\(name)' must be a global ID or null, not \(write.value.kindName)"
                }
            } else {
                return unknown(name, in: entity)
            }
        }
        for name in state.counters.keys.sorted() where !entity.attributes.contains(where: { $0.name == name && $0.isCounter }) {
            return entity.travels(name) ? "'\(entity.name).\(name)' is not a counter; send it under 'attributes'" : unknown(name, in: entity)
        }
        for (name, members) in state.sets.sorted(by: { $0.key < $1.key }) {
            guard entity.toMany.contains(where: { $0.name == name && $0.kind == .set }) else {
                return entity.travels(name) ? "'\(entity.name).\(name)' is not an unordered to-many; it cannot be sent under 'sets'" : unknown(name, in: entity)
            }
            if let bad = members.keys.sorted().first(where: { GlobalID($0) == nil }) {
                return "'\(entity.name).\(name)' names '\(bad)', which is not a global ID"
            }
        }
        for (name, order) in state.orders.sorted(by: { $0.key < $1.key }) {
            guard entity.toMany.contains(where: { $0.name == name && $0.kind != .set }) else {
                return entity.travels(name) ? "'\(entity.name).\(name)' is not an ordered to-many; it cannot be sent under 'orders'" : unknown(name, in: entity)
            }
            if let bad = order.members.first(where: { GlobalID($0) == nil }) {
                return "'\(entity.name).\(name)' names '\(bad)', which is not a global ID"
            }
        }
        return nil
    }

    private func unknown(_ name: String, in entity: SyncModel.Entity) -> String {
        "the entity '\(entity.name)' has no synced attribute or relationship named '\(name)'"
    }
}
