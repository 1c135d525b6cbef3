/// Something the main context tells about the changes it applied: a monitor.
@MainActor
protocol ChangeObserver: AnyObject {
    /// The storage whose changes concern it.
    var observedStorage: Int32 { get }
    /// Works out what the changes mean for it, reading from the context's pinned snapshot.
    func observe(_ changes: ObservedChanges, context: ObjectContext)
    /// Stops for good: every consumer's sequence throws `error`.
    func stop(_ error: StrataError)
}

/// The main context's monitors, held weakly: a monitor lives as long as its user holds it (or
/// iterates its events), and drops out of here once it is gone.
@MainActor
final class ObserverRegistry {
    private struct Entry {
        weak var observer: (any ChangeObserver)?
    }

    private var entries: [Entry] = []

    /// An empty registry; the stack makes it off the main actor.
    nonisolated init() {}

    /// Whether any monitor may still be alive (commits are then recorded for them).
    var isActive: Bool { !entries.isEmpty }

    /// The monitors alive now, pruning those that are gone.
    var observers: [any ChangeObserver] {
        entries.removeAll { $0.observer == nil }
        return entries.compactMap(\.observer)
    }

    func add(_ observer: any ChangeObserver) {
        entries.append(Entry(observer: observer))
    }
}

/// The consumers of one monitor's events, held weakly: a consumer that stops iterating drops
/// its buffer, and the monitor stops sending to it.
struct EventSubscribers<Element: Sendable> {
    private struct Entry {
        weak var buffer: EventBuffer<Element>?
    }

    private var entries: [Entry] = []

    /// Adds a consumer.
    mutating func add(_ buffer: EventBuffer<Element>) {
        entries.append(Entry(buffer: buffer))
    }

    /// Whether any consumer is still listening.
    var isEmpty: Bool { entries.allSatisfy { $0.buffer == nil } }

    /// Sends an event to every consumer still listening.
    mutating func send(_ element: Element) {
        entries.removeAll { $0.buffer == nil }
        for entry in entries { entry.buffer?.send(element) }
    }

    /// Ends every consumer's sequence.
    mutating func finish(throwing error: StrataError? = nil) {
        for entry in entries { entry.buffer?.finish(throwing: error) }
        entries.removeAll()
    }
}

extension StrataError {
    /// How a monitor stopped by this error says so: a stack's own closing is expected, anything
    /// else is a problem.
    var monitorStopLevel: LogLevel {
        if case .stackClosed = self { return .notice }
        return .warning
    }
}
