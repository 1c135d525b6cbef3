import ArgumentParser
import Foundation
import StrataSchema

/// Writing to standard output and standard error without touching C globals.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error, colouring `error:` and `warning:` when it is a terminal and
    /// `NO_COLOR` is not set.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((errorIsTerminal ? DiagnosticText.colored(text) : text).utf8))
    }

    /// Whether standard error is a terminal that takes colour.
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    /// A status line for long work, rewritten in place on a terminal and never written elsewhere.
    static func progress(_ text: String, quiet: Bool) {
        guard errorIsTerminal, !quiet else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Clears the status line.
    static func progressDone(quiet: Bool) {
        guard errorIsTerminal, !quiet else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// The error for a version name a model does not have, naming the ones it has.
    static func unknownVersion(_ name: String, in model: Model) -> String {
        "error: the model has no version '\(name)'; it has \(model.versions.map(\.name).joined(separator: ", "))\n"
    }

    /// Pretty, key-sorted JSON followed by a line feed.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings.")
    var quiet = false
}
