// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
/// Strata builds every statement with SQLite's `?` placeholders; PostgreSQL numbers them (`$1`,
/// `$2`, ...). This turns one form into the other, leaving alone a `?` inside a quoted identifier
/// (`"why?"`, a storage key may hold any character), a string literal (`'what?'`, a default in
/// DDL), or a comment.
enum PostgreSQLPlaceholders {
    /// The statement with each `?` outside quotes and comments numbered in order (the `n`th
    /// written as `spelling(n)`, `$n` unless given), and how many there were.
    static func numbered(_ sql: String, spelling: (Int) -> String = { "$\($0)" }) -> (text: String, count: Int) {
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 8)
        var count = 0
        var index = sql.utf8.startIndex
        let bytes = sql.utf8
        // The byte that ends the quoted span we are in, if any.
        var closing: UInt8?
        var lineComment = false
        var blockComment = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index) < bytes.endIndex ? bytes[bytes.index(after: index)] : 0
            if lineComment {
                if byte == UInt8(ascii: "\n") { lineComment = false }
            } else if blockComment {
                if byte == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                    output.append(byte)
                    index = bytes.index(after: index)
                    output.append(bytes[index])
                    index = bytes.index(after: index)
                    blockComment = false
                    continue
                }
            } else if let quote = closing {
                // A doubled quote inside the span stays inside it: the pair is copied whole.
                if byte == quote { closing = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                closing = byte
            } else if byte == UInt8(ascii: "-"), next == UInt8(ascii: "-") {
                lineComment = true
            } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                blockComment = true
            } else if byte == UInt8(ascii: "?") {
                count += 1
                output.append(contentsOf: spelling(count).utf8)
                index = bytes.index(after: index)
                continue
            }
            output.append(byte)
            index = bytes.index(after: index)
        }
        return (String(decoding: output, as: UTF8.self), count)
    }
}
#endif
