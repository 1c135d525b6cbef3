import Hummingbird
import Strata

/// Turns the store's errors into answers: a uniqueness clash is a 409, an import the model
/// refuses or a patch missing a required field a 400 that names the field, a patch naming an
/// object that is not there a 404, anything else a 500 (logged, its details kept from the
/// client). The transaction that threw was rolled back, so the store is as it was.
struct StrataErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StrataError {
            throw Self.answer(for: error, context: context)
        } catch let error as PayloadError {
            throw HTTPError(.badRequest, message: error.description)
        } catch let error as UnknownReference {
            throw HTTPError(.notFound, message: error.description)
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
