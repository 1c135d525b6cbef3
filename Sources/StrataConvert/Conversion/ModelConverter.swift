import StrataSchema

/// A converted model: its files (`model.yml` first) and what did not carry over as it was.
public struct ConvertedModel: Sendable, Hashable {
    /// A file of the model folder.
    public struct File: Sendable, Hashable {
        /// The file's name, such as `V2.yml`.
        public var name: String
        /// Its text.
        public var contents: String
    }

    /// The model's name.
    public var name: String
    /// The version names, oldest first.
    public var versions: [String]
    /// `model.yml`, then one file per version, oldest first.
    public var files: [File]
    /// Everything that was changed, left out or renamed on the way, in the order met.
    public var warnings: [ConversionDiagnostic]
}

/// Turns an Xcode model into a Strata model folder: one version file per model version, chained
/// in natural name order (or in the order given), the current version last.
public enum ModelConverter {
    /// Converts a bundle. `chain` lists version names (as Xcode shows them, or as converted) in
    /// migration order; without it, every version is chained in natural name order. `current`
    /// names the current version, which ends the chain (without `chain`, later versions are left
    /// out). Either, given, wins over `.xccurrentversion`, with a warning when they disagree.
    public static func convert(_ bundle: ModelBundle, chain: [String]? = nil, current: String? = nil) throws(ConversionDiagnostic) -> ConvertedModel {
        var warnings: [ConversionDiagnostic] = []
        let modelName = Names.identifier(bundle.name)
        if modelName != bundle.name {
            warnings.append(ConversionDiagnostic(.warning, "model '\(bundle.name)' is named '\(modelName)': model names are Swift identifiers"))
        }
        let ordered = try order(bundle, chain: chain, current: current, warnings: &warnings)
        var names: [String] = []
        for version in ordered {
            let name = versionName(version)
            if let index = names.firstIndex(of: name) {
                throw ConversionDiagnostic(.error, "versions '\(ordered[index].name)' and '\(version.name)' would both be named '\(name)'")
            }
            if name != version.name {
                warnings.append(ConversionDiagnostic(.warning, "version '\(version.name)' is named '\(name)': version names are Swift identifiers"))
            }
            names.append(name)
        }
        var files: [ConvertedModel.File] = []
        for (index, version) in ordered.enumerated() {
            var converter = VersionConverter(model: version.model, versionName: names[index],
                                             previous: index > 0 ? (names[index - 1], ordered[index - 1].model) : nil)
            let yaml = converter.yaml(source: bundle.source(of: version))
            // In file order, so a reader can walk the Core Data model top to bottom.
            warnings += converter.warnings.enumerated().sorted { lhs, rhs in
                let left = lhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, 0)
                let right = rhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, 0)
                return left != right ? left < right : lhs.offset < rhs.offset
            }.map(\.element)
            files.append(ConvertedModel.File(name: names[index] + ".yml", contents: ModelJSONSchemas.modeline(for: ModelJSONSchemas.versionFile) + "\n" + yaml))
        }
        let manifest = try manifest(bundle: bundle, name: modelName, versions: names, current: ordered[ordered.count - 1], warnings: &warnings)
        return ConvertedModel(name: modelName, versions: names, files: [ConvertedModel.File(name: "model.yml", contents: manifest)] + files,
                              warnings: warnings)
    }

    /// A version's name in the converted model: Xcode's, made an identifier (`MyApp 2` → `MyApp2`).
    static func versionName(_ version: ModelBundle.Version) -> String {
        Names.identifier(version.name, prefix: "V")
    }

    /// The versions in chain order, the current one last: `chain` or natural name order, ended
    /// at `current` when given; `.xccurrentversion` decides nothing the user gave, and a current
    /// version it names that is not last is warned about, never silently dropped.
    static func order(_ bundle: ModelBundle, chain: [String]?, current: String?,
                      warnings: inout [ConversionDiagnostic]) throws(ConversionDiagnostic) -> [ModelBundle.Version] {
        let versionList = bundle.versions.map { "'\($0.name)'" }.joined(separator: ", ")
        func version(_ name: String, option: String) throws(ConversionDiagnostic) -> ModelBundle.Version {
            guard let version = bundle.versions.first(where: { $0.name == name || versionName($0) == name }) else {
                throw ConversionDiagnostic(.error, "\(option) names '\(name)', which is not a version of \(bundle.name); its versions are " + versionList)
            }
            return version
        }
        var ordered = bundle.versions
        if let chain {
            ordered = []
            for name in chain {
                let version = try version(name, option: "--chain")
                guard !ordered.contains(version) else { throw ConversionDiagnostic(.error, "--chain names '\(name)' twice") }
                ordered.append(version)
            }
            guard !ordered.isEmpty else { throw ConversionDiagnostic(.error, "--chain names no version") }
            for version in bundle.versions where !ordered.contains(version) {
                warnings.append(ConversionDiagnostic(.warning, "version '\(version.name)' is not in --chain, so it is not converted"))
            }
        }
        let named = bundle.currentVersion
        let position = bundle.currentVersionPosition
        if let current {
            let chosen = try version(current, option: "--current")
            if chain != nil {
                guard ordered.last == chosen else {
                    throw ConversionDiagnostic(.error, "--current names '\(chosen.name)', but --chain ends at '\(ordered[ordered.count - 1].name)'; "
                                               + "the current version ends the chain")
                }
            } else if let end = ordered.firstIndex(of: chosen) {
                for later in ordered[(end + 1)...] {
                    warnings.append(ConversionDiagnostic(.warning, "version '\(later.name)' comes after the current version '\(chosen.name)' (--current), "
                                                         + "so it is not converted"))
                }
                ordered = Array(ordered[...end])
            }
            if let named, named != chosen.name {
                warnings.append(ConversionDiagnostic(.warning, ".xccurrentversion names '\(named)' as the current version; "
                                                     + "--current makes it '\(chosen.name)'", at: position))
            }
            return ordered
        }
        let last = ordered[ordered.count - 1]
        guard let named else {
            if let position {
                warnings.append(ConversionDiagnostic(.warning, ".xccurrentversion names no current version, so '\(last.name)', the last of the chain, "
                                                     + "is converted as the current one (--current chooses another)", at: position))
            }
            return ordered
        }
        guard last.name != named else { return ordered }
        if chain != nil {
            warnings.append(ConversionDiagnostic(.warning, ".xccurrentversion names '\(named)' as the current version, but --chain ends at "
                                                 + "'\(last.name)', which is converted as the current one", at: position))
        } else if bundle.versions.contains(where: { $0.name == named }) {
            warnings.append(ConversionDiagnostic(.warning, ".xccurrentversion names '\(named)' as the current version, but versions come after it "
                                                 + "in name order: all are converted, '\(last.name)' as the current one; --current '\(named)' "
                                                 + "ends the chain there, --chain gives another order", at: position))
        } else {
            throw ConversionDiagnostic(.error, ".xccurrentversion names '\(named)' as the current version, which is not a version of "
                                       + "\(bundle.name); its versions are " + versionList + "; give the current one with --current", at: position)
        }
        return ordered
    }

    /// `model.yml`: the name, the chain, and the current version's configurations, each holding
    /// whole hierarchies (a hierarchy shares one table).
    static func manifest(bundle: ModelBundle, name: String, versions: [String], current: ModelBundle.Version,
                         warnings: inout [ConversionDiagnostic]) throws(ConversionDiagnostic) -> String {
        var lines = [ModelJSONSchemas.modeline(for: ModelJSONSchemas.manifestFile),
                     "# Converted by strata convert from \(bundle.source).", "model: \(YAMLText.scalar(name))",
                     "migrationChain: " + YAMLText.list(versions)]
        let model = current.model
        let configurations = model.configurations.filter { !$0.entities.isEmpty }
        guard !configurations.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        lines.append("configurations:")
        var names: Set<String> = []
        for configuration in configurations {
            let configurationName = Names.identifier(configuration.name)
            guard configurationName.count <= CoreDataModelReader.maximumNameLength else {
                throw ConversionDiagnostic(.error, "configuration '\(configuration.name.prefix(60))…' has a name longer than "
                                           + "\(CoreDataModelReader.maximumNameLength) characters")
            }
            guard names.insert(configurationName).inserted else {
                throw ConversionDiagnostic(.error, "two configurations would be named '\(configurationName)'")
            }
            if configurationName != configuration.name {
                warnings.append(ConversionDiagnostic(.warning, "configuration '\(configuration.name)' is named '\(configurationName)'",
                                                     at: configuration.position))
            }
            var members: [String] = []
            for entity in configuration.entities {
                for member in hierarchy(of: entity, in: model) where !members.contains(member) {
                    members.append(member)
                    if !configuration.entities.contains(member) {
                        warnings.append(ConversionDiagnostic(.warning, "'\(member)' joins configuration '\(configurationName)' with '\(entity)': "
                                                             + "a hierarchy shares one table, so it is stored whole", at: configuration.position))
                    }
                }
            }
            lines.append("  \(YAMLText.scalar(configurationName)): " + YAMLText.list(members))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An entity's whole hierarchy: its root and every entity below it, the root first.
    static func hierarchy(of name: String, in model: CoreDataModel) -> [String] {
        var root = name
        var seen: Set<String> = [name]
        while let parent = model.entity(root)?.parent, !seen.contains(parent) {
            seen.insert(parent)
            root = parent
        }
        var result = [root]
        var index = 0
        while index < result.count {
            for entity in model.entities where entity.parent == result[index] && !result.contains(entity.name) {
                result.append(entity.name)
            }
            index += 1
        }
        return result
    }
}
