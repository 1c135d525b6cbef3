import Synchronization

/// Tests that load the whole machine (eight child processes writing one row, a crash loop of
/// child processes, thousands of stacks) take turns: run side by side on a two-core machine, they
/// slowed every other test of the process (and the server those share) past its time limits.
/// Waiting for a turn suspends the test's task; it holds no thread.
public enum HeavyTests {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private static let state = Mutex(State())

    /// Runs `body` once no other heavy test is running.
    public static func oneAtATime<T>(_ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runsNow = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if runsNow { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
