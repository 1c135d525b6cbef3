import Strata

extension DataStack {
    /// Runs `body` with this stack, then closes it, also when `body` throws: a workload leaves no
    /// connection open, and so no write-ahead log or shared-memory file in its scratch folder.
    func closing<R>(isolation: isolated (any Actor)? = #isolation, _ body: (DataStack) async throws -> R) async throws -> R {
        let result: Result<R, any Error>
        do {
            result = .success(try await body(self))
        } catch {
            result = .failure(error)
        }
        await close()
        return try result.get()
    }
}
