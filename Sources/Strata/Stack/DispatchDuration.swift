import Dispatch

extension DispatchTimeInterval {
    /// A `Duration` as Dispatch measures time, in whole nanoseconds (clamped, so the longest
    /// duration waits as long as Dispatch can).
    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
    }
}
