/// The first error of an app's decode function (a `coder: custom` attribute) met while this
/// context read rows, and every object whose row failed so.
struct ReadFailures {
    let first: StrataError
    var keys: [ObjectKey]
}

/// Reads that meet a row the app's decode function refuses fail with `decodingFailed`. A row is
/// read inside `readColumns`, which cannot throw, so the reader reports the failure here and the
/// read checks once it has read its rows: per fetch, not per row.
extension ObjectContext {
    /// Records that `object`'s row did not decode.
    func noteReadFailure(_ error: StrataError, of object: StrataObject) {
        if readFailures == nil {
            readFailures = ReadFailures(first: error, keys: [object.key])
        } else {
            readFailures?.keys.append(object.key)
        }
    }

    /// Throws the first failure recorded since the last check, if any. With `forgetting`, the
    /// objects that failed leave the identity map, so a later read reads (and reports) their rows
    /// again instead of returning an object that lacks the value.
    func throwReadFailures(forgetting: Bool) throws(StrataError) {
        guard let failures = readFailures else { return }
        readFailures = nil
        if forgetting {
            for key in failures.keys { registered[key] = nil }
        }
        throw failures.first
    }
}
