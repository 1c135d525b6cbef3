import Hummingbird
import Strata

/// Turns the store's errors into answers: a uniqueness clash is a 409, an import the model
/// refuses a 400 that names the field, anything else a 500 (logged, its details kept from the
/// client). The transaction that threw was rolled back, so the store is as it was.
struct StrataErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StrataError {
            throw Self.answer(for: error, context: context)
        }
    }

    static func answer(for error: StrataError, context: Context) -> HTTPError {
        switch error {
        case .uniquenessViolation(let entity, let attributes):
            return HTTPError(.conflict, message: "another \(entity) has the same \(attributes.joined(separator: " and "))")
        case .importFailed(let entity, _, let key, let reason), .invalidImportSource(let entity, _, let key?, let reason):
            return HTTPError(.badRequest, message: "the field '\(key)' of a \(entity) cannot be imported: \(reason)")
        case .invalidImportSource(let entity, _, nil, let reason):
            return HTTPError(.badRequest, message: "a \(entity) cannot be imported: \(reason)")
        default:
            context.logger.error("request failed: \(error)")
            return HTTPError(.internalServerError, message: "the server could not complete the request")
        }
    }
}
