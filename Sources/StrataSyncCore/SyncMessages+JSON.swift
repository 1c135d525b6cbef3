/// The JSON of the messages sent in bulk, written and read directly: the same JSON as their
/// `Codable` forms (fields in another order), several times faster. A page of an initial sync
/// holds thousands of states, and this is most of a sync's time otherwise.
extension PullResponse {
    /// The page as JSON.
    public func jsonBytes() -> [UInt8] {
        var writer = SyncJSONWriter(capacity: 128 + entries.count * 256)
        writer.raw("{\"format\":")
        writer.integer(Int64(format))
        writer.raw(",\"entries\":[")
        for (index, entry) in entries.enumerated() {
            writer.raw(index == 0 ? "{\"sequence\":" : ",{\"sequence\":")
            writer.integer(entry.sequence)
            writer.raw(",\"change\":")
            writer.change(entry.change)
            writer.raw("}")
        }
        writer.raw("],\"checkpoint\":")
        writer.integer(checkpoint)
        writer.raw(",\"remaining\":")
        writer.integer(remaining)
        writer.raw(",\"clock\":")
        writer.timestamp(clock)
        writer.raw(",\"epoch\":")
        writer.string(epoch)
        writer.raw(",\"account\":")
        writer.string(account)
        writer.raw("}")
        return writer.bytes
    }

    /// Reads a page from its JSON; throws naming the byte where the JSON goes wrong, or the
    /// field that is missing.
    public init(jsonBytes: [UInt8]) throws(SyncProtocolError) {
        var reader = SyncJSONReader(jsonBytes)
        var format: Int64?, entries: [Entry]?, checkpoint: Int64?, remaining: Int64?
        var clock: SyncTimestamp?, epoch: String?, account: String?
        try reader.object { reader, name throws(SyncProtocolError) in
            switch name {
            case "format": format = try reader.integer()
            case "entries":
                var list: [Entry] = []
                try reader.array { reader throws(SyncProtocolError) in list.append(try reader.entry()) }
                entries = list
            case "checkpoint": checkpoint = try reader.integer()
            case "remaining": remaining = try reader.integer()
            case "clock": clock = try reader.timestamp()
            case "epoch": epoch = try reader.string()
            case "account": account = try reader.string()
            default: try reader.skipValue()
            }
        }
        try reader.end()
        let what = "a pull's answer"
        guard try required(format, "format", in: what) == Int64(SyncFormat.current) else {
            throw SyncProtocolError("this client speaks sync format \(SyncFormat.current), and the server sent format \(format ?? 0)")
        }
        self.init(entries: try required(entries, "entries", in: what), checkpoint: try required(checkpoint, "checkpoint", in: what),
                  remaining: try required(remaining, "remaining", in: what), clock: try required(clock, "clock", in: what),
                  epoch: try required(epoch, "epoch", in: what), account: try required(account, "account", in: what))
    }
}

extension PushRequest {
    /// The batch as JSON.
    public func jsonBytes() -> [UInt8] {
        var writer = SyncJSONWriter(capacity: 128 + changes.count * 256)
        writer.raw("{\"format\":")
        writer.integer(Int64(format))
        writer.raw(",\"client\":")
        writer.string(client)
        writer.raw(",\"model\":")
        writer.string(model)
        writer.raw(",\"version\":")
        writer.string(version)
        if let lock {
            writer.raw(",\"lock\":")
            writer.string(lock)
        }
        writer.raw(",\"batch\":")
        writer.integer(batch)
        writer.raw(",\"changes\":[")
        for (index, change) in changes.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.change(change)
        }
        writer.raw("]}")
        return writer.bytes
    }
}

extension SyncJSONReader {
    /// Reads one entry of a pull's answer.
    mutating func entry() throws(SyncProtocolError) -> PullResponse.Entry {
        var sequence: Int64?, change: SyncChange?
        try object { reader, name throws(SyncProtocolError) in
            switch name {
            case "sequence": sequence = try reader.integer()
            case "change": change = try reader.change()
            default: try reader.skipValue()
            }
        }
        let what = "a pull's entry"
        return PullResponse.Entry(sequence: try required(sequence, "sequence", in: what), change: try required(change, "change", in: what))
    }
}
