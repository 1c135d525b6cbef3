/// The 64-bit FNV-1a hash of text's UTF-8 bytes: stable across runs, processes and machines
/// (unlike `Hasher`), for names made up from other names and for lock keys every server agrees on.
package enum FNV1a {
    /// The hash of `text`.
    package static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return hash
    }
}

/// SQL identifiers, for the backends' own statements.
package enum SQLIdentifier {
    /// `name` in double quotes, with the double quotes it holds doubled: safe in any SQL both
    /// dialects parse, whatever the name holds.
    package static func quote(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
