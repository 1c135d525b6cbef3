/// Checks that no entity takes a name the generated code gives to something else: the model's
/// enum (`PetStore`) or the namespace of one of its versions (`PetStoreV1`, which holds that
/// version's descriptors and migration types). Either would be a duplicate declaration in the
/// app's module. And that no attribute or relationship takes the name of an entity or of the
/// model: inside the generated class and snapshot the property would hide that type.
enum GeneratedNameValidator {
    static func validate(_ model: Model, into diagnostics: inout Diagnostics) {
        let modelName = model.manifest.name
        let namespaces = Dictionary(model.versions.map { (modelName + $0.name, $0.name) }, uniquingKeysWith: { first, _ in first })
        for version in model.versions {
            let typeNames = Set(version.entities.map(\.name)).union([modelName])
            for entity in version.entities {
                let properties = entity.attributes.map { ($0.name, $0.location, "attribute") }
                    + entity.relationships.map { ($0.name, $0.location, "relationship") }
                for (name, location, kind) in properties where typeNames.contains(name) {
                    let owner = name == modelName ? "the model" : "entity '\(name)'"
                    diagnostics.error("\(kind) '\(entity.name).\(name)' has the name of \(owner); generated code uses that name as a type "
                                      + "where the property would hide it, so give the property another name", at: location)
                }
                if entity.name == modelName {
                    diagnostics.error("entity '\(entity.name)' has the name of its model; the generated code declares 'enum \(modelName)' for the model",
                                      at: entity.location)
                } else if let owner = namespaces[entity.name] {
                    diagnostics.error("entity '\(entity.name)' has the name the generated code gives to version '\(owner)' of model '\(modelName)'",
                                      at: entity.location)
                }
            }
        }
    }
}
