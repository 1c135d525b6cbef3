import Foundation
import Hummingbird

/// The API's one JSON form, for the generated snapshots and patches alike: dates in ISO 8601 (as
/// the OpenAPI document says), keys sorted (so equal values read equal).
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `value` encoded as a response with `status`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        try response(data: encoder().encode(value), status: status)
    }

    /// JSON bytes as a response with `status`.
    static func response(data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        response.headers[.contentLength] = String(data.count)
        return response
    }

    /// `value` encoded as one line of text (for server-sent events).
    static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
