/// Checks everything that needs more than one mapping at a time: references between entities,
/// versions and files. Parsing already reported problems of shape and spelling.
public enum ModelValidator {
    /// Every problem in a parsed model.
    public static func validate(_ model: Model) -> [Diagnostic] {
        validate(model, someVersionFilesUnread: false)
    }

    /// Every problem in a parsed model; with `someVersionFilesUnread` (a version file whose YAML
    /// could not be read was already reported), a chain naming a version no file declares is not
    /// reported again: that file is most likely the one declaring it.
    static func validate(_ model: Model, someVersionFilesUnread: Bool) -> [Diagnostic] {
        var diagnostics = Diagnostics()
        ChainValidator.validate(model, someVersionFilesUnread: someVersionFilesUnread, into: &diagnostics)
        // Each version on its own core: a large model's versions are independent here, and this
        // runs before anything else a build of the app can do.
        let perVersion = model.versions.concurrentMap { version in
            var found = Diagnostics()
            EntityValidator(version: version).validate(into: &found)
            RelationshipValidator(version: version).validate(into: &found)
            ImportValidator(version: version).validate(into: &found)
            SyncValidator(version: version).validate(into: &found)
            MigrationHintValidator(model: model, version: version).validate(into: &found)
            return found
        }
        for found in perVersion { diagnostics.append(contentsOf: found.all) }
        ConfigurationValidator.validate(model, into: &diagnostics)
        if !diagnostics.all.contains(where: { $0.severity == .error }) {
            MigrationStepValidator.validate(model, into: &diagnostics)
        }
        GeneratedNameValidator.validate(model, into: &diagnostics)
        return diagnostics.all
    }
}
