extension DataStack {
    /// A monitor of a fetch's objects, in order, kept up to date on the main actor (see
    /// ``ListMonitor``). Throws when the fetch's clauses cannot be compiled or its store read.
    @MainActor
    public func monitorList<F: FetchDescription>(_ fetch: F) throws(StrataError) -> ListMonitor<F.Entity> {
        try ListMonitor(stack: self, chain: fetch.fetchChain, sectionBy: nil)
    }

    /// A monitor of a fetch's objects with clauses as separate arguments:
    /// `stack.monitorList(From<Person>(), Where<Person>(\.age > 30), OrderBy<Person>(.ascending(\.name)))`
    /// (see ``FetchClause``).
    @MainActor
    public func monitorList<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> ListMonitor<T> {
        try monitorList(from.refined(by: clauses))
    }

    /// A monitor of a fetch's objects grouped into sections, with clauses as separate arguments:
    /// `stack.monitorSectionedList(From<Person>(), SectionBy<Person>(\.city), OrderBy<Person>(.ascending(\.city)))`.
    @MainActor
    public func monitorSectionedList<T>(_ from: From<T>, _ sectionBy: SectionBy<T>,
                                        _ clauses: any FetchClause...) throws(StrataError) -> ListMonitor<T> {
        try monitorSectionedList(from.refined(by: clauses).sectionBy(sectionBy))
    }

    /// A monitor of a fetch's objects grouped into sections:
    /// `stack.monitorSectionedList(From<Person>().sectionBy(\.city).orderBy(.ascending(\.name)))`.
    @MainActor
    public func monitorSectionedList<T>(_ fetch: SectionedFetchChain<T>) throws(StrataError) -> ListMonitor<T> {
        try ListMonitor(stack: self, chain: fetch.fetchChain, sectionBy: fetch.sectionBy)
    }

    /// A monitor of one object (see ``ObjectMonitor``). Throws
    /// ``StrataError/objectNotFound(_:)`` when the object does not exist (deleted, or never saved).
    @MainActor
    public func monitorObject<T: StrataObject>(_ objectID: ObjectID<T>) throws(StrataError) -> ObjectMonitor<T> {
        try ObjectMonitor(stack: self, objectID: objectID)
    }

    /// A monitor of one object, given any context's instance of it.
    @MainActor
    public func monitorObject<T: StrataObject>(_ object: T) throws(StrataError) -> ObjectMonitor<T> {
        try ObjectMonitor(stack: self, objectID: ObjectID(key: object.key, entityName: Swift.type(of: object).entityName))
    }
}
