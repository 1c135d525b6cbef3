// Compiled with the PostgreSQL trait only (see Package.swift).
#if PostgreSQL
import Strata
@testable import StrataPostgres
import Testing

@Suite("PostgreSQL connection URLs")
struct PostgreSQLAddressTests {
    @Test func tcpWithEverything() throws {
        let address = try PostgreSQLAddress(url: "postgres://app:s%40cret@db.internal:6543/pets?sslmode=require")
        #expect(address.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(address.user == "app")
        #expect(address.password == "s@cret")
        #expect(address.database == "pets")
        #expect(address.tlsMode == .require)
        #expect(address.server == "db.internal:6543")
        #expect(address.description == "postgres://app@db.internal:6543/pets")
    }

    @Test func defaultsFollowPsql() throws {
        let address = try PostgreSQLAddress(url: "postgresql://app@db.internal")
        #expect(address.endpoint == .tcp(host: "db.internal", port: 5432))
        #expect(address.database == "app")
        #expect(address.password == nil)
        #expect(address.tlsMode == .prefer)
        #expect(address.connectTimeout == .seconds(30))
    }

    @Test func connectTimeoutInWholeSecondsAndZeroForNoLimit() throws {
        #expect(try PostgreSQLAddress(url: "postgres://app@db/pets?connect_timeout=5").connectTimeout == .seconds(5))
        #expect(try PostgreSQLAddress(url: "postgres://app@db/pets?connect_timeout=0").connectTimeout == nil)
    }

    @Test func socketFolderFromTheHostParameter() throws {
        let address = try PostgreSQLAddress(url: "postgres://app@/pets?host=/tmp/pg&port=5433")
        #expect(address.endpoint == .socket(folder: "/tmp/pg", port: 5433))
        #expect(address.server == "the Unix socket in /tmp/pg (port 5433)")
        #expect(address.description == "postgres://app@/pets?host=/tmp/pg&port=5433")
        let plain = try PostgreSQLAddress(url: "postgres://app@/pets")
        #expect(plain.endpoint == .socket(folder: "/var/run/postgresql", port: 5432))
    }

    @Test func severalHostsInTheAuthorityEachWithItsPort() throws {
        let address = try PostgreSQLAddress(url: "postgres://app:pw@db1:5432,db2:5433,[::1]/pets?target_session_attrs=read-write")
        #expect(address.endpoints == [.tcp(host: "db1", port: 5432), .tcp(host: "db2", port: 5433), .tcp(host: "::1", port: 5432)])
        #expect(address.targetSession == .readWrite)
        #expect(address.password == "pw")
        #expect(address.database == "pets")
        #expect(address.server == "db1:5432, db2:5433, [::1]:5432")
        #expect(address.description == "postgres://app@db1:5432,db2:5433,[::1]:5432/pets?target_session_attrs=read-write")
        #expect(try PostgreSQLAddress(url: address.description) == PostgreSQLAddress(url: "postgres://app@db1:5432,db2:5433,[::1]/pets?target_session_attrs=read-write"))
    }

    @Test func severalSocketFoldersAndPortsInTheParameters() throws {
        let address = try PostgreSQLAddress(url: "postgres://app@/pets?host=/run/a,/run/b&port=5432,5433&target_session_attrs=primary")
        #expect(address.endpoints == [.socket(folder: "/run/a", port: 5432), .socket(folder: "/run/b", port: 5433)])
        #expect(address.targetSession == .primary)
        #expect(address.description == "postgres://app@/pets?host=/run/a,/run/b&port=5432,5433&target_session_attrs=primary")
        let onePort = try PostgreSQLAddress(url: "postgres://app@/pets?host=/run/a,/run/b&port=6000")
        #expect(onePort.endpoints == [.socket(folder: "/run/a", port: 6000), .socket(folder: "/run/b", port: 6000)])
        #expect(onePort.targetSession == .any)
    }

    @Test func theKindOfServerEachTargetAccepts() {
        #expect(PostgreSQLAddress.TargetSession.allCases.map { [$0.accepts(inRecovery: false), $0.accepts(inRecovery: true)] }
            == [[true, true], [true, false], [true, false], [false, true], [false, true]])
    }

    @Test(arguments: [
        ("mysql://app@db/pets", "cannot connect to database '?' on mysql://app@db/pets: the URL's scheme is 'mysql'; a PostgreSQL URL starts with postgres://"),
        ("postgres://app@db:99999/pets", "cannot connect to database '?' on postgres://app@db:99999/pets: the port '99999' is not a number from 1 to 65535"),
        ("db.internal/pets", "cannot connect to database '?' on db.internal/pets: not a URL; write postgres://user:password@host:port/database"),
        ("postgres://app@db/pets?port=0", "cannot connect to database '?' on postgres://app@db/pets?port=0: the port '0' is not a number from 1 to 65535"),
        ("postgres://app:pw@db/pets?sslmode=maybe", "cannot connect to database '?' on postgres://app:***@db/pets?sslmode=maybe: sslmode 'maybe' is not one of disable, prefer, require"),
        ("postgres://app@db/pets?timeout=3", "cannot connect to database '?' on postgres://app@db/pets?timeout=3: the URL parameter 'timeout' is not one Strata reads (connect_timeout, dbname, host, password, port, sslmode, target_session_attrs, user)"),
        ("postgres://app@db/pets?connect_timeout=2.5", "cannot connect to database '?' on postgres://app@db/pets?connect_timeout=2.5: connect_timeout '2.5' is not a whole number of seconds (0 for no limit)"),
        ("postgres://app@db/pets?connect_timeout=-1", "cannot connect to database '?' on postgres://app@db/pets?connect_timeout=-1: connect_timeout '-1' is not a whole number of seconds (0 for no limit)"),
        ("postgres://app@db/pets/more", "cannot connect to database '?' on postgres://app@db/pets/more: the database name 'pets/more' holds a '/'; the URL's path is the database alone"),
        ("postgres://app:pw@db1,db2:0/pets", "cannot connect to database '?' on postgres://app:***@db1,db2:0/pets: the port '0' is not a number from 1 to 65535"),
        ("postgres://app@/pets?host=/a,/b,/c&port=1,2", "cannot connect to database '?' on postgres://app@/pets?host=/a,/b,/c&port=1,2: the URL names 3 hosts and 2 ports; give one port, or one for each host"),
        ("postgres://app@db1,[::1/pets", "cannot connect to database '?' on postgres://app@db1,[::1/pets: the host '[::1' opens '[' and never closes it"),
        ("postgres://app@db1,db2/pets?target_session_attrs=prefer-standby", "cannot connect to database '?' on postgres://app@db1,db2/pets?target_session_attrs=prefer-standby: target_session_attrs 'prefer-standby' is not one of any, read-write, primary, read-only, standby"),
        ("postgres://app@/pets?sslmode=require", "cannot connect to database '?' on postgres://app@/pets?sslmode=require: sslmode=require asks for TLS, which a Unix socket does not use; remove it or connect over TCP"),
    ])
    func badURLs(url: String, message: String) {
        #expect(throws: StrataError.self) { try PostgreSQLAddress(url: url) }
        do {
            _ = try PostgreSQLAddress(url: url)
        } catch {
            #expect(error.description == message)
        }
    }
}
#endif
