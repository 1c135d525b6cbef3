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
        for version in model.versions {
            EntityValidator(version: version).validate(into: &diagnostics)
            RelationshipValidator(version: version).validate(into: &diagnostics)
            ImportValidator(version: version).validate(into: &diagnostics)
            MigrationHintValidator(model: model, version: version).validate(into: &diagnostics)
        }
        ConfigurationValidator.validate(model, into: &diagnostics)
        if !diagnostics.all.contains(where: { $0.severity == .error }) {
            MigrationStepValidator.validate(model, into: &diagnostics)
        }
        GeneratedNameValidator.validate(model, into: &diagnostics)
        return diagnostics.all
    }
}
