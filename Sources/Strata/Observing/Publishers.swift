/// A fetch's list as an `AsyncSequence` of ``ListSnapshot``s, to iterate from any actor: the
/// current list first, then the list after each change. A consumer that lags gets only the
/// newest list. The monitor behind it runs on the main actor from the first `next()` until the
/// iteration ends.
///
/// ```swift
/// for try await snapshot in stack.publishList(From<Person>().orderBy(.ascending(\.name))) {
///     await dataSource.apply(snapshot.itemIDs)
/// }
/// ```
public struct ListPublisher<T: StrataObject>: AsyncSequence, Sendable {
    /// The error that ends the sequence: the fetch cannot be compiled, or its store became unreadable.
    public typealias Failure = StrataError

    let stack: DataStack
    let chain: FetchChainBuilder<T>
    let sectionBy: SectionBy<T>?

    /// Iterates the snapshots.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let publisher: ListPublisher<T>
        private var source: (buffer: EventBuffer<ListSnapshot<T>>, monitor: ListMonitor<T>)?

        init(publisher: ListPublisher<T>) {
            self.publisher = publisher
        }

        /// The next snapshot; nil when the task was cancelled.
        public mutating func next() async throws(StrataError) -> ListSnapshot<T>? {
            if source == nil { source = try await Self.start(publisher) }
            return try await source?.buffer.next()
        }

        /// The next snapshot; nil when the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StrataError) -> ListSnapshot<T>? {
            if source == nil { source = try await Self.start(publisher) }
            return try await source?.buffer.next()
        }

        /// Starts the monitor on the main actor.
        private static func start(_ publisher: ListPublisher<T>) async throws(StrataError) -> (buffer: EventBuffer<ListSnapshot<T>>, monitor: ListMonitor<T>) {
            try await MainActor.run { () -> Result<(buffer: EventBuffer<ListSnapshot<T>>, monitor: ListMonitor<T>), StrataError> in
                Result { () throws(StrataError) in
                    let monitor = try ListMonitor(stack: publisher.stack, chain: publisher.chain, sectionBy: publisher.sectionBy)
                    return (monitor.snapshots(), monitor)
                }
            }.get()
        }
    }

    /// An iterator; the monitor starts at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(publisher: self)
    }
}

/// One object as an `AsyncSequence` of its generated snapshots, to iterate from any actor: the
/// current values first, then the values after each change; nil once the object is deleted,
/// which ends the sequence. A consumer that lags gets only the newest values.
///
/// ```swift
/// for try await person in stack.publishObject(id, as: Person.Snapshot.self) {
///     print(person?.name ?? "deleted")
/// }
/// ```
public struct ObjectPublisher<S: EntitySnapshot>: AsyncSequence, Sendable {
    /// The error that ends the sequence: the object does not exist, or its store became unreadable.
    public typealias Failure = StrataError

    let stack: DataStack
    let objectID: ObjectID<S.Object>

    /// Iterates the snapshots.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let publisher: ObjectPublisher<S>
        private var source: (buffer: EventBuffer<S?>, monitor: ObjectMonitor<S.Object>)?

        init(publisher: ObjectPublisher<S>) {
            self.publisher = publisher
        }

        /// The next snapshot (nil: deleted); nil at the end or when the task was cancelled.
        public mutating func next() async throws(StrataError) -> S?? {
            if source == nil { source = try await Self.start(publisher) }
            return try await source?.buffer.next()
        }

        /// The next snapshot (nil: deleted); nil at the end or when the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StrataError) -> S?? {
            if source == nil { source = try await Self.start(publisher) }
            return try await source?.buffer.next()
        }

        /// Starts the monitor on the main actor.
        private static func start(_ publisher: ObjectPublisher<S>) async throws(StrataError) -> (buffer: EventBuffer<S?>, monitor: ObjectMonitor<S.Object>) {
            try await MainActor.run { () -> Result<(buffer: EventBuffer<S?>, monitor: ObjectMonitor<S.Object>), StrataError> in
                Result { () throws(StrataError) in
                    let monitor = try ObjectMonitor(stack: publisher.stack, objectID: publisher.objectID)
                    return (monitor.snapshots(S.self), monitor)
                }
            }.get()
        }
    }

    /// An iterator; the monitor starts at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(publisher: self)
    }
}

extension DataStack {
    /// A fetch's list as snapshots, from any actor (see ``ListPublisher``).
    public func publishList<F: FetchDescription>(_ fetch: F) -> ListPublisher<F.Entity> {
        ListPublisher(stack: self, chain: fetch.fetchChain, sectionBy: nil)
    }

    /// A sectioned fetch's list as snapshots, from any actor (see ``ListPublisher``).
    public func publishSectionedList<T>(_ fetch: SectionedFetchChain<T>) -> ListPublisher<T> {
        ListPublisher(stack: self, chain: fetch.fetchChain, sectionBy: fetch.sectionBy)
    }

    /// An object's generated snapshots, from any actor (see ``ObjectPublisher``):
    /// `stack.publishObject(id, as: Person.Snapshot.self)`.
    public func publishObject<S: EntitySnapshot>(_ objectID: ObjectID<S.Object>, as type: S.Type) -> ObjectPublisher<S> {
        ObjectPublisher(stack: self, objectID: objectID)
    }
}
