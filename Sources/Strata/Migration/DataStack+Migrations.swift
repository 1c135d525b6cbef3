import Foundation

extension DataStack {
    /// The steps adding `storage` would run to bring its file to the current version, without
    /// changing anything: empty when the file does not exist, is empty, or is already current.
    ///
    /// Throws what adding it would throw for a file it cannot open: another model, an unknown
    /// version, a version the chain does not lead from, or a step that cannot be inferred.
    public func requiredMigrations(for storage: SQLiteStore) throws(StrataError) -> [MigrationType] {
        let path = storage.fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let state = try StoreProbe.read(path, file: path) { connection throws(StrataError) in
            try StoreOpener.state(of: connection, file: path, history: schemaHistory)
        }
        guard case .older(_, let versions) = state else { return [] }
        let plans = try MigrationRunner.plans(versions, history: schemaHistory, configuration: storage.configuration ?? "Default", file: path)
        return plans.map { plan in
            plan.isCustom ? .heavyweight(sourceVersion: plan.sourceVersion, destinationVersion: plan.destinationVersion)
                : .lightweight(sourceVersion: plan.sourceVersion, destinationVersion: plan.destinationVersion)
        }
    }
}

extension DataStack {
    /// Adds `storage` as ``addStorage(_:progress:)`` does, reporting the migration as a stream:
    /// a value as each step starts and as a custom step's rows advance, a last one with
    /// `isFinished` once the storage is ready, then the end of the stream. A store that needs no
    /// migration yields nothing. The stream throws the ``StrataError`` adding it throws.
    public func addStorageWithProgress<S: StorageInterface>(_ storage: S) -> AsyncThrowingStream<MigrationProgress, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.addStorage(storage) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Adds `storage` in the background, as CoreStore's `addStorage(_:completion:)` does, and calls
    /// `completion` on the main actor with the storage or the error. The returned `Progress`
    /// follows the migration (1,000 units per step) and completes when the storage is ready; a
    /// store that needs no migration completes it at once.
    @discardableResult
    public func addStorage<S: StorageInterface>(_ storage: S,
                                                completion: @escaping @MainActor @Sendable (Result<S, StrataError>) -> Void) -> Progress {
        let progress = Progress(totalUnitCount: 1_000)
        Task {
            let result: Result<S, StrataError>
            do throws(StrataError) {
                result = .success(try await addStorage(storage, reportingTo: progress))
                progress.completedUnitCount = progress.totalUnitCount
            } catch {
                result = .failure(error)
            }
            await completion(result)
        }
        return progress
    }

    /// Adds `storage` as ``addStorage(_:progress:)`` does, reporting to a Foundation `Progress`:
    /// its total becomes 1,000 units per step, and its completed units follow the migration.
    @discardableResult
    public func addStorage<S: StorageInterface>(_ storage: S, reportingTo progress: Progress) async throws(StrataError) -> S {
        try await addStorage(storage) { value in
            progress.totalUnitCount = Int64(max(value.stepCount, 1)) * 1_000
            progress.completedUnitCount = Int64((value.fractionCompleted * Double(progress.totalUnitCount)).rounded())
        }
    }
}
