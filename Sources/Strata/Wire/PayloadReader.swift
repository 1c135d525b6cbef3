import Foundation

/// Reads the fields of a JSON object for a generated type's `init(from:)`, collecting every
/// problem rather than stopping at the first: a wrong kind of value, a value out of range, a
/// missing or `null` required field, and each field the object has that the type does not. Once
/// every field is read, ``finish()`` throws one ``PayloadError`` naming them all.
///
/// ```swift
/// init(from decoder: any Decoder) throws {
///     var reader = try PayloadReader(decoder, entity: "Dog", fields: ["nickname", "weight"])
///     nickname = reader.field("nickname")
///     weight = reader.field("weight")
///     try reader.finish()
/// }
/// ```
///
/// Fields are named by their path from the body's top (`pets[2].weight`), so the problems of
/// objects nested in arrays and objects name where they are.
public struct PayloadReader {
    private let container: KeyedDecodingContainer<SnapshotKey>
    private let path: String
    private var problems: [PayloadError.Problem] = []

    /// Starts reading `decoder`'s value, which must be a JSON object whose fields are among
    /// `fields`, those of `entity`. Throws a ``PayloadError`` at once when it is not an object;
    /// fields it does not know are problems that ``finish()`` reports.
    public init(_ decoder: any Decoder, entity: String, fields: [String]) throws {
        path = Self.path(decoder.codingPath)
        do {
            container = try decoder.container(keyedBy: SnapshotKey.self)
        } catch {
            let found = (try? FoundValue(from: decoder))?.described(against: .object) ?? "something else"
            throw PayloadError(problems: [PayloadError.Problem(field: path, reason: "must be a JSON object, found \(found)")])
        }
        let known = Set(fields)
        for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            problems.append(PayloadError.Problem(field: join(key), reason: "is not a field of \(entity) (its fields are "
                                                 + fields.joined(separator: ", ") + ")"))
        }
    }

    /// A field as the body gives it: absent, null, or a value of `T`. A value of another kind,
    /// or out of `T`'s range, is a problem (and reads as absent).
    public mutating func field<T: Decodable>(_ name: String, as type: T.Type = T.self) -> PatchField<T> {
        let key = SnapshotKey(stringValue: name)
        guard container.contains(key) else { return .absent }
        if (try? container.decodeNil(forKey: key)) == true { return .null }
        do {
            return .set(try container.decode(T.self, forKey: key))
        } catch let nested as PayloadError {
            problems += nested.problems
        } catch {
            let expected = PayloadKind.expected(T.self)
            let found = (try? container.decode(FoundValue.self, forKey: key))?.described(against: expected.json) ?? "something else"
            problems.append(PayloadError.Problem(field: join(name), reason: "must be \(expected.words), found \(found)"))
        }
        return .absent
    }

    /// A field the body must give, with a value: absent or null is a problem too. Nil when there
    /// was one.
    public mutating func required<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T? {
        switch field(name, as: T.self) {
        case .set(let value): return value
        case .null:
            problems.append(PayloadError.Problem(field: join(name), reason: "cannot be null"))
            return nil
        case .absent:
            let field = join(name)
            if !problems.contains(where: { $0.field == field }) {
                problems.append(PayloadError.Problem(field: field, reason: "is missing"))
            }
            return nil
        }
    }

    /// A field that may be left out or null (nil either way).
    public mutating func optional<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T? {
        field(name, as: T.self).givenValue
    }

    /// A field that must not be null when the body gives it: absent reads as nil, null is a
    /// problem (for a change of an attribute that cannot be nil).
    public mutating func notNull<T: Decodable>(_ name: String, as type: T.Type = T.self) -> PatchField<T> {
        let value = field(name, as: T.self)
        if case .null = value { problems.append(PayloadError.Problem(field: join(name), reason: "cannot be null")) }
        return value
    }

    /// A `coder: custom` attribute's field: its bytes (base64 text) through the app's `decode`,
    /// whose error is a problem of the field.
    public mutating func customField<T>(_ name: String, decode: (Data) throws -> T) -> PatchField<T> {
        switch field(name, as: Data.self) {
        case .absent: return .absent
        case .null: return .null
        case .set(let bytes): return customField(name, bytes: bytes, decode: decode).map(PatchField.set) ?? .absent
        }
    }

    /// Bytes through the app's `decode`; its error is a problem of the field (and nil).
    private mutating func customField<T>(_ name: String, bytes: Data, decode: (Data) throws -> T) -> T? {
        do {
            return try decode(bytes)
        } catch {
            problems.append(PayloadError.Problem(field: join(name), reason: "could not be decoded: \(error)"))
            return nil
        }
    }

    /// A `coder: custom` attribute's field that must not be null when given (see
    /// ``notNull(_:as:)``).
    public mutating func customNotNull<T>(_ name: String, decode: (Data) throws -> T) -> PatchField<T> {
        let value = customField(name, decode: decode)
        if case .null = value { problems.append(PayloadError.Problem(field: join(name), reason: "cannot be null")) }
        return value
    }

    /// A `coder: custom` attribute's field that the body must give (see ``required(_:as:)``).
    public mutating func requiredCustom<T>(_ name: String, decode: (Data) throws -> T) -> T? {
        let bytes: Data? = required(name)
        return bytes.flatMap { bytes in customField(name, bytes: bytes, decode: decode) }
    }

    /// A `coder: custom` attribute's field that may be left out or null (nil either way).
    public mutating func optionalCustom<T>(_ name: String, decode: (Data) throws -> T) -> T? {
        customField(name, decode: decode).givenValue
    }

    /// Throws every problem found, in the order found; returns when there was none.
    public func finish() throws {
        if !problems.isEmpty { throw PayloadError(problems: problems) }
    }

    private func join(_ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    /// A coding path as a field path: `pets[2].weight`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return path
    }
}
