import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird

/// The router's response encoder for every ``ResponseEncodable`` answer of the service: the same bytes as
/// ``JSONCoding/encode(_:)`` (sorted keys, slashes unescaped) with `Content-Type: application/json` and
/// `Cache-Control: no-store`, as the v2 wire has always answered. ``AppContext`` and ``CallerContext`` name it as their
/// `responseEncoder`; a handler returns its wire value (`EditedResponse` for a status other than 200).
package struct WireJSONEncoder: ResponseEncoder {
    /// Creates the encoder.
    package init() {}

    /// Encodes `value` as the wire's JSON answer.
    package func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        JSONCoding.response(json: try JSONCoding.makeEncoder().encode(value))
    }
}

// The v2 wire answers (EntitleCore, which has no Hummingbird) returned by the handlers as they are.
extension SessionResponse: ResponseEncodable {}
extension ClientRegistration: ResponseEncodable {}
extension AccessTokenResponse: ResponseEncodable {}
extension LogoutsResponse: ResponseEncodable {}
extension ProfilesResponse: ResponseEncodable {}
