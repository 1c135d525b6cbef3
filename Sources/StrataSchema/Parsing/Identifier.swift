/// Which names are legal in a model: Swift identifiers, keywords included (the generator escapes
/// them and SQL quotes them), invisible formatting characters excluded so two names that look
/// the same are the same.
enum Identifier {
    /// Whether `name` can name an entity, property, version, model or configuration.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isHead(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { isHead($0) || isContinuation($0) }
    }

    /// The explanation appended to "not a valid name" errors.
    static let rule = "names start with a letter or '_' and go on with letters, digits or '_'"

    private static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0x00...0x7F: return false
        case 0x00A8, 0x00AA, 0x00AF, 0x00B2...0x00B5, 0x00B7...0x00BA, 0x00BC...0x00BE,
             0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x00FF, 0x0100...0x02FF, 0x0370...0x167F,
             0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF, 0x203F...0x2040, 0x2054,
             0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF,
             0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
             0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44, 0xFE47...0xFFFD,
             0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD,
             0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD,
             0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD,
             0xD0000...0xDFFFD, 0xE0000...0xEFFFD:
            return true
        default:
            return false
        }
    }

    private static func isContinuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return false
        }
    }
}

/// Name rules for tools that create models.
public enum ModelNames {
    /// Whether `name` can name a model, version, entity or property.
    public static func isValid(_ name: String) -> Bool { Identifier.isValid(name) }

    /// The explanation for names that are not valid.
    public static let rule = Identifier.rule
}
