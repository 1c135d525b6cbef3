// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata

/// The parts of a connection URL that URL parsers do not read: a list of hosts in the authority
/// (`db1:5432,db2:5432`), and a password to leave out of messages.
extension PostgreSQLAddress {
    /// The range of a URL's authority (`user:password@hosts`), when it has `://`.
    private static func authority(of text: String) -> Range<String.Index>? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let end = text[schemeEnd.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        return schemeEnd.upperBound..<end
    }

    /// The URL with only the first of the hosts its authority lists, and the list (nil when it
    /// names one host).
    static func splittingHostList(_ text: String) -> (url: String, hosts: [String]?) {
        guard let authority = authority(of: text) else { return (text, nil) }
        let hostStart = text[authority].lastIndex(of: "@").map { text.index(after: $0) } ?? authority.lowerBound
        let list = text[hostStart..<authority.upperBound]
        guard list.contains(",") else { return (text, nil) }
        let hosts = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return (String(text[..<hostStart]) + hosts[0] + String(text[authority.upperBound...]), hosts)
    }

    /// A host of an authority's list and the port written beside it: `db1`, `db1:5433`, `[::1]:5433`.
    static func hostAndPort(_ entry: String, refuse: (String) -> StrataError) throws(StrataError) -> (host: String, port: Int?) {
        var host = Substring(entry)
        var portText: Substring?
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { throw refuse("the host '\(entry)' opens '[' and never closes it") }
            host = entry[entry.index(after: entry.startIndex)..<close]
            let after = entry[entry.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw refuse("the host '\(entry)' has '\(after)' after its ']'") }
            if !after.isEmpty { portText = after.dropFirst() }
        } else if let colon = entry.lastIndex(of: ":") {
            host = entry[..<colon]
            portText = entry[entry.index(after: colon)...]
        }
        let name = String(host).removingPercentEncoding ?? String(host)
        guard let portText else { return (name, nil) }
        guard let port = Int(portText), (1...65_535).contains(port) else { throw refuse("the port '\(portText)' is not a number from 1 to 65535") }
        return (name, port)
    }

    /// A URL as an error may repeat it: the password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard let authority = authority(of: text), let at = text[authority].lastIndex(of: "@"),
              let colon = text[authority.lowerBound..<at].firstIndex(of: ":") else { return text }
        return String(text[...colon]) + "***" + String(text[at...])
    }
}
#endif
