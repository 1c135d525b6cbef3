import Foundation

/// Options for local storages.
public struct LocalStorageOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// When the file holds another model, an unknown version, or a version from which the chain
    /// leads nowhere (no migration can open it), delete it and start empty; logged as a warning.
    public static let recreateStoreOnModelMismatch = LocalStorageOptions(rawValue: 1 << 0)
    /// Let `addStorageAndWait` migrate a store whose steps are all lightweight (inferred SQL, no
    /// custom step); without it, only `addStorage` migrates.
    public static let allowSynchronousLightweightMigration = LocalStorageOptions(rawValue: 1 << 1)
}

/// What a commit waits for before it returns.
///
/// Whatever the setting, a commit is atomic and a crash of the process loses nothing a commit
/// acknowledged: SQLite's write-ahead log is in the operating system's hands once the commit
/// returns.
public enum Durability: Sendable, Hashable {
    /// SQLite's `synchronous = NORMAL` in WAL mode, the default: an operating-system crash or a
    /// power loss may lose the last commits (never corrupt the store); commits are fast.
    case normal
    /// `synchronous = FULL`: each commit waits until the log is on disk, so it survives a power loss
    /// too; each commit costs an `fsync`.
    case full
}

/// A place a stack keeps objects: a SQLite file or memory.
public protocol StorageInterface: Sendable, CustomStringConvertible {
    /// The configuration whose entities it holds; nil means `Default`.
    var configuration: String? { get }
}

/// A SQLite file in WAL mode.
public struct SQLiteStore: StorageInterface {
    /// The database file.
    public let fileURL: URL
    /// The configuration whose entities it holds; nil means `Default`.
    public let configuration: String?
    /// How to treat a mismatching file.
    public let localStorageOptions: LocalStorageOptions
    /// What a commit waits for: `.normal` (the default) or `.full`.
    public let durability: Durability
    /// How long a transaction waits for the write lock while another process (or an unsafe
    /// transaction) holds it, before it fails with ``StrataError/storeBusy(file:milliseconds:)``.
    /// Reads never wait.
    public let busyTimeout: Duration

    /// A store at an explicit file URL.
    public init(fileURL: URL, configuration: String? = nil, localStorageOptions: LocalStorageOptions = [], durability: Durability = .normal,
                busyTimeout: Duration = .seconds(5)) {
        self.fileURL = fileURL
        self.configuration = configuration
        self.localStorageOptions = localStorageOptions
        self.durability = durability
        self.busyTimeout = busyTimeout
    }

    /// A store named `fileName` in the app's default folder: Application Support on Apple
    /// platforms, `$XDG_DATA_HOME` (or `~/.local/share`) on Linux, then a folder named after the
    /// bundle identifier or process.
    public init(fileName: String, configuration: String? = nil, localStorageOptions: LocalStorageOptions = [], durability: Durability = .normal,
                busyTimeout: Duration = .seconds(5)) {
        self.init(fileURL: SQLiteStore.defaultDirectory.appendingPathComponent(fileName), configuration: configuration,
                  localStorageOptions: localStorageOptions, durability: durability, busyTimeout: busyTimeout)
    }

    /// The app's store in the default folder, as CoreStore's `SQLiteStore()`:
    /// ``defaultFileURL``, `<app name>.sqlite` in ``defaultDirectory``.
    public init(configuration: String? = nil, localStorageOptions: LocalStorageOptions = [], durability: Durability = .normal,
                busyTimeout: Duration = .seconds(5)) {
        self.init(fileURL: SQLiteStore.defaultFileURL, configuration: configuration, localStorageOptions: localStorageOptions,
                  durability: durability, busyTimeout: busyTimeout)
    }

    /// Where `SQLiteStore()` keeps the app's store: `<app name>.sqlite` in ``defaultDirectory``,
    /// the app name being the bundle's name on Apple platforms and the process name elsewhere.
    public static var defaultFileURL: URL {
        let name = Bundle.main.object(forInfoDictionaryKey: "CFBundleName") as? String ?? ProcessInfo.processInfo.processName
        return defaultDirectory.appendingPathComponent(name + ".sqlite")
    }

    /// Where `SQLiteStore(fileName:)` puts files.
    public static var defaultDirectory: URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let folder = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        return base.appendingPathComponent(folder, isDirectory: true)
    }

    /// `SQLiteStore(<path>)`.
    public var description: String { "SQLiteStore(\(fileURL.path))" }
}

/// A store that is gone when the stack goes: a private temporary database (in WAL mode, so reads
/// never wait for a transaction), with durability switched off.
public struct InMemoryStore: StorageInterface {
    /// The configuration whose entities it holds; nil means `Default`.
    public let configuration: String?

    /// A new, empty in-memory store.
    public init(configuration: String? = nil) {
        self.configuration = configuration
    }

    /// `InMemoryStore`.
    public var description: String { "InMemoryStore" + (configuration.map { "(\($0))" } ?? "") }
}
