import Foundation

/// Writes the sync messages' JSON straight to bytes: the same JSON `JSONEncoder` writes for
/// them (key order aside), several times faster, since a page of an initial sync holds thousands
/// of states. Only the messages a node sends in bulk use it; every message stays `Codable`.
struct SyncJSONWriter {
    /// The JSON so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Values

    /// Writes ASCII punctuation or a key already quoted.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `"name":`.
    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes text as a JSON string.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        stringBody(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes text's characters, escaped as inside a JSON string.
    mutating func stringBody(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }

    /// Writes a whole number.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// Writes a whole number's digits.
    mutating func unsigned(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// Writes a finite number in its shortest form that reads back to the same bits.
    mutating func real(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    // MARK: The protocol's types

    /// Writes a timestamp's wire form, `"milliseconds.counter@node"`.
    mutating func timestamp(_ stamp: SyncTimestamp) {
        bytes.append(UInt8(ascii: "\""))
        integer(stamp.milliseconds)
        bytes.append(UInt8(ascii: "."))
        unsigned(UInt64(stamp.counter))
        bytes.append(UInt8(ascii: "@"))
        stringBody(stamp.node)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a value's JSON form (see ``SyncValue``).
    mutating func value(_ value: SyncValue) {
        switch value {
        case .null: raw("null")
        case .integer(let whole): integer(whole)
        case .text(let text): string(text)
        case .real(let number):
            raw("{\"real\":")
            if number.isNaN { raw("\"nan\"") }
            else if number.isInfinite { number > 0 ? raw("\"inf\"") : raw("\"-inf\"") }
            else { real(number) }
            raw("}")
        case .blob(let data):
            raw("{\"base64\":\"")
            bytes.append(contentsOf: Data(data).base64EncodedString().utf8)
            raw("\"}")
        }
    }

    /// Writes a state, leaving out the parts that hold nothing (as its `Codable` form does).
    mutating func state(_ state: SyncedObject) {
        var comma = false
        func part(_ name: StaticString, _ writer: inout SyncJSONWriter) {
            writer.raw(comma ? "," : "{")
            comma = true
            writer.raw(name)
        }
        if !state.attributes.isEmpty {
            part("\"attributes\":", &self)
            members(state.attributes) { writer, stamped in
                writer.raw("{\"value\":")
                writer.value(stamped.value)
                writer.raw(",\"stamp\":")
                writer.timestamp(stamped.stamp)
                writer.raw("}")
            }
        }
        if !state.counters.isEmpty {
            part("\"counters\":", &self)
            members(state.counters) { writer, counter in
                writer.raw("{\"contributions\":")
                writer.members(counter.contributions) { writer, totals in
                    writer.raw("{\"up\":")
                    writer.integer(totals.up)
                    writer.raw(",\"down\":")
                    writer.integer(totals.down)
                    writer.raw("}")
                }
                writer.raw("}")
            }
        }
        if !state.sets.isEmpty {
            part("\"sets\":", &self)
            members(state.sets) { writer, set in
                writer.members(set) { writer, stamps in
                    writer.raw("{")
                    if let added = stamps.added {
                        writer.raw("\"added\":")
                        writer.timestamp(added)
                    }
                    if let removed = stamps.removed {
                        writer.raw(stamps.added == nil ? "\"removed\":" : ",\"removed\":")
                        writer.timestamp(removed)
                    }
                    writer.raw("}")
                }
            }
        }
        if !state.orders.isEmpty {
            part("\"orders\":", &self)
            members(state.orders) { writer, order in
                writer.raw("{\"members\":[")
                for (index, member) in order.members.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.string(member)
                }
                writer.raw("],\"stamp\":")
                writer.timestamp(order.stamp)
                writer.raw("}")
            }
        }
        if let deleted = state.deleted {
            part("\"deleted\":", &self)
            timestamp(deleted)
        }
        raw(comma ? "}" : "{}")
    }

    /// Writes a change: `{"entity": …, "id": …, "state": …}`.
    mutating func change(_ change: SyncChange) {
        raw("{\"entity\":")
        string(change.entity)
        raw(",\"id\":")
        string(change.id.text)
        raw(",\"state\":")
        state(change.state)
        raw("}")
    }

    /// Writes a dictionary as an object, each value by `write`.
    mutating func members<Value>(_ dictionary: [String: Value], _ write: (inout SyncJSONWriter, Value) -> Void) {
        raw("{")
        var first = true
        for (name, value) in dictionary {
            if !first { raw(",") }
            first = false
            key(name)
            write(&self, value)
        }
        raw("}")
    }
}
