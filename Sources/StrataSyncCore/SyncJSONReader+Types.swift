import Foundation

/// Reading the protocol's types with a ``SyncJSONReader``, as their `Codable` forms read them.
extension SyncJSONReader {
    /// Reads a timestamp's wire form.
    mutating func timestamp() throws(SyncProtocolError) -> SyncTimestamp {
        _ = peekValue()
        let start = offset
        if let stamp = repeatedTimestamp() { return stamp }
        let text = try string()
        guard let stamp = SyncTimestamp(text) else {
            throw SyncProtocolError("'\(text)' at byte \(start) is not a timestamp (milliseconds.counter@node)")
        }
        rememberTimestamp(stamp, from: start)
        return stamp
    }

    /// Reads a timestamp, or nil for `null`.
    mutating func optionalTimestamp() throws(SyncProtocolError) -> SyncTimestamp? {
        null() ? nil : try timestamp()
    }

    /// Reads a global ID's UUID text.
    mutating func globalID() throws(SyncProtocolError) -> GlobalID {
        let start = offset
        let text = try string()
        guard let id = GlobalID(text) else { throw SyncProtocolError("'\(text)' at byte \(start) is not a global ID (UUID text)") }
        return id
    }

    /// Reads a value's JSON form (see ``SyncValue``).
    mutating func value() throws(SyncProtocolError) -> SyncValue {
        switch peekValue() {
        case UInt8(ascii: "n"):
            guard null() else { throw malformed("a value") }
            return .null
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "{"): return try wrappedValue()
        default: return .integer(try integer())
        }
    }

    /// Reads `{"real": …}` or `{"base64": …}`.
    private mutating func wrappedValue() throws(SyncProtocolError) -> SyncValue {
        let start = offset
        var result: SyncValue?
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "real":
                if reader.peekValue() == UInt8(ascii: "\"") {
                    let wordStart = reader.offset
                    switch try reader.string() {
                    case "nan": result = .real(.nan)
                    case "inf": result = .real(.infinity)
                    case "-inf": result = .real(-.infinity)
                    case let word: throw SyncProtocolError("'\(word)' at byte \(wordStart) is not nan, inf or -inf")
                    }
                } else {
                    result = .real(try reader.number())
                }
            case "base64":
                let textStart = reader.offset
                guard let data = Data(base64Encoded: try reader.string()) else {
                    throw SyncProtocolError("the string at byte \(textStart) is not base64")
                }
                result = .blob(Array(data))
            default: try reader.skipValue()
            }
        }
        guard let result else { throw SyncProtocolError("the value at byte \(start) holds neither 'real' nor 'base64'") }
        return result
    }

    /// Reads a state; each part may be left out.
    mutating func state() throws(SyncProtocolError) -> SyncedObject {
        var state = SyncedObject()
        try object { reader, part throws(SyncProtocolError) in
            switch part {
            case "attributes": state.attributes = try reader.dictionary { reader throws(SyncProtocolError) in try reader.stampedValue() }
            case "counters": state.counters = try reader.dictionary { reader throws(SyncProtocolError) in try reader.counter() }
            case "sets":
                state.sets = try reader.dictionary { reader throws(SyncProtocolError) in
                    try reader.dictionary { reader throws(SyncProtocolError) in try reader.memberStamps() }
                }
            case "orders": state.orders = try reader.dictionary { reader throws(SyncProtocolError) in try reader.stampedOrder() }
            case "deleted": state.deleted = try reader.optionalTimestamp()
            default: try reader.skipValue()
            }
        }
        return state
    }

    /// Reads a change.
    mutating func change() throws(SyncProtocolError) -> SyncChange {
        var entity: String?, id: GlobalID?, state: SyncedObject?
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "entity": entity = try reader.string()
            case "id": id = try reader.globalID()
            case "state": state = try reader.state()
            default: try reader.skipValue()
            }
        }
        let what = "a change"
        return SyncChange(entity: try required(entity, "entity", in: what), id: try required(id, "id", in: what),
                          state: try required(state, "state", in: what))
    }

    /// Reads an object whose fields are a dictionary's entries, each value by `value`.
    mutating func dictionary<Value>(_ value: (inout SyncJSONReader) throws(SyncProtocolError) -> Value) throws(SyncProtocolError) -> [String: Value] {
        var result: [String: Value] = [:]
        try object { reader, name throws(SyncProtocolError) in result[name] = try value(&reader) }
        return result
    }

    private mutating func stampedValue() throws(SyncProtocolError) -> StampedValue {
        var value: SyncValue?, stamp: SyncTimestamp?
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "value": value = try reader.value()
            case "stamp": stamp = try reader.timestamp()
            default: try reader.skipValue()
            }
        }
        let what = "an attribute's write"
        return StampedValue(try required(value, "value", in: what), at: try required(stamp, "stamp", in: what))
    }

    private mutating func counter() throws(SyncProtocolError) -> SyncCounter {
        var contributions: [String: SyncCounter.Totals]?
        try object { reader, name throws(SyncProtocolError) in
            guard name == "contributions" else { return try reader.skipValue() }
            contributions = try reader.dictionary { reader throws(SyncProtocolError) in
                var up: Int64?, down: Int64?
                try reader.object { reader, name throws(SyncProtocolError) in
                    switch name {
                    case "up": up = try reader.integer()
                    case "down": down = try reader.integer()
                    default: try reader.skipValue()
                    }
                }
                let what = "a counter's totals"
                return SyncCounter.Totals(up: try required(up, "up", in: what), down: try required(down, "down", in: what))
            }
        }
        var counter = SyncCounter()
        counter.contributions = try required(contributions, "contributions", in: "a counter")
        return counter
    }

    private mutating func memberStamps() throws(SyncProtocolError) -> SyncedObject.MemberStamps {
        var stamps = SyncedObject.MemberStamps()
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "added": stamps.added = try reader.optionalTimestamp()
            case "removed": stamps.removed = try reader.optionalTimestamp()
            default: try reader.skipValue()
            }
        }
        return stamps
    }

    private mutating func stampedOrder() throws(SyncProtocolError) -> SyncedObject.StampedOrder {
        var members: [String]?, stamp: SyncTimestamp?
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "members":
                var list: [String] = []
                try reader.array { reader throws(SyncProtocolError) in list.append(try reader.string()) }
                members = list
            case "stamp": stamp = try reader.timestamp()
            default: try reader.skipValue()
            }
        }
        let what = "an order"
        return SyncedObject.StampedOrder(members: try required(members, "members", in: what), stamp: try required(stamp, "stamp", in: what))
    }
}

/// `value`, or an error saying the field `name` is missing in `what`.
func required<Value>(_ value: Value?, _ name: String, in what: String) throws(SyncProtocolError) -> Value {
    guard let value else { throw SyncProtocolError("the field '\(name)' is missing in \(what)") }
    return value
}
