/// Everything wrong with a request body, field by field: a wrong kind of value, a value out of
/// range, a missing or `null` required field, a field the entity does not have. One error names
/// them all, so a client fixes its request in one go rather than one field per round trip.
///
/// Its description lists the problems in the order they were found, joined by semicolons:
/// `the field 'weight' must be a number, found text; the field 'colour' is not a field of Dog (its
/// fields are nickname, species, weight, years)`.
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One thing wrong with one field.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The field's path in the body: `weight`, or `pets[2].weight` inside a nested object;
        /// empty for the body itself.
        public let field: String
        /// What is wrong with it: `must be a number, found text`.
        public let reason: String

        /// A problem of the field at `field`.
        public init(field: String, reason: String) {
            self.field = field
            self.reason = reason
        }

        /// `the field 'weight' must be a number, found text` (`the body ...` for the body itself).
        public var description: String {
            (field.isEmpty ? "the body " : "the field '\(field)' ") + reason
        }
    }

    /// Every problem found, at least one.
    public let problems: [Problem]

    /// An error of `problems`.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// The problems, joined by semicolons.
    public var description: String {
        problems.map(\.description).joined(separator: "; ")
    }

}
