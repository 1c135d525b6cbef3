/// How long the ``ExternalCommitWatcher`` waits before trying again a store it could not read:
/// ``first``, then twice as long each time up to ``longest``, and never longer than its interval.
struct RetryDelay {
    /// The first wait after a failure.
    static let first = Duration.milliseconds(100)
    /// The longest wait between tries.
    static let longest = Duration.seconds(5)

    /// The watcher's interval: the wait once everything was read.
    let interval: Duration
    private var current = Self.first

    init(interval: Duration) {
        self.interval = interval
    }

    /// The wait before the next try, lengthening the one after.
    mutating func next() -> Duration {
        defer { current = min(current * 2, Self.longest) }
        return min(current, interval)
    }

    /// Everything was read: the next failure starts again from ``first``. Returns the interval.
    mutating func reset() -> Duration {
        current = Self.first
        return interval
    }
}
