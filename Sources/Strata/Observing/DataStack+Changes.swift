extension DataStack {
    /// The changes of every commit this stack makes from now on, one value per commit, in commit
    /// order, whichever transaction made it. Each access starts a new sequence; leaving its loop
    /// (or cancelling the task iterating it) stops it. Commits of other stacks or processes on the
    /// same file are not reported.
    ///
    /// ```swift
    /// for await change in stack.changes {
    ///     if let people = change.changes(of: Person.self) { print(people.inserted.count) }
    /// }
    /// ```
    public var changes: AsyncStream<CommitChanges> {
        core.changes.subscribe()
    }
}
