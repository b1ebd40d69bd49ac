import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird

/// A REST API v1 request: its parameters (query, and form body for POST/DELETE) and its answer format.
package struct V1Request: Sendable {
    /// The HTTP request.
    package let request: Request
    /// Query parameters, overridden by form fields of the body.
    package let parameters: [String: String]
    /// The negotiated answer format.
    package let format: V1Format
    /// The raw form body (for repeated fields such as adobe-services' `resource_id`).
    package var body: String = ""

    /// A parameter, nil when missing or empty.
    package subscript(_ name: String) -> String? { parameters[name].nonEmpty }

    /// The requestor id from `requestor` or `requestor_id` (or the path), required.
    package func requestorID(path: String? = nil) throws -> String {
        guard let id = path ?? self["requestor"] ?? self["requestor_id"], id.utf8.count <= 128 else {
            throw APIError(
                EnhancedError(
                    action: "none", status: 400, code: "invalid_requestor",
                    message: "The requestor parameter is missing or invalid."))
        }
        return id
    }

    /// The `deviceId` parameter as a device identifier: the same value as the decoded REST v2 `AP-Device-Identifier`.
    package func deviceID() throws -> DeviceIdentifier {
        guard let raw = self["deviceId"] ?? self["device_id"], let device = DeviceIdentifier(rawValue: raw) else {
            throw APIError(
                EnhancedError(
                    action: "none", status: 400, code: "invalid_device_id",
                    message: "The deviceId parameter is missing or invalid."))
        }
        return device
    }

    /// `X-Device-Info` or `device_info` when sent; a malformed value is refused.
    package func deviceInfo() throws -> DeviceInfo? {
        guard let text = request.headers[.deviceInfo] ?? self["device_info"] else { return nil }
        do {
            return try DeviceInfo.decode(header: text)
        } catch {
            throw APIError(
                EnhancedError(
                    action: "none", status: 400, code: "invalid_device_info",
                    message: "The device information is missing or invalid."))
        }
    }

    /// The `resource` parameter, required.
    package func resource() throws -> String {
        guard let resource = self["resource"] ?? self["resource_id"], resource.utf8.count <= 64 * 1024 else {
            throw APIError(EnhancedError(action: "none", status: 400, code: "missing_resource", message: "The resource parameter is missing."))
        }
        return resource
    }

    /// Creates the value from each of its stored properties.
    package init(request: Request, parameters: [String: String], format: V1Format, body: String = "") {
        self.request = request
        self.parameters = parameters
        self.format = format
        self.body = body
    }
}

/// The v1 errors of protocol notes §3 and §7.1 (REST API v1 codes; open set).
extension EnhancedError {
    package static func v1(_ status: Int, _ code: Code, _ message: String, action: Action = .none) -> EnhancedError {
        EnhancedError(action: action, status: status, code: code, message: message)
    }

    /// The identity provider ended the device's sign-in (REST v1's authentication calls, 403).
    package static var v1AuthnInvalidated: EnhancedError {
        v1(403, .authenticationSessionInvalidated, "The authentication session was invalidated by the identity provider.", action: .authentication)
    }
    /// The identity provider ended the sign-in an authorization needs (REST v1's authorize and media token, 403).
    package static var v1AuthnInvalidatedForAuthz: EnhancedError {
        v1(
            403, .authorizationDeniedBySessionInvalidated, "The authentication session was invalidated by the identity provider.",
            action: .authentication)
    }
    /// No authentication for the device (`tokens/authn` 404).
    package static var v1AuthnNotFound: EnhancedError { v1(404, "authentication_session_missing", "Not Found", action: "authentication") }
    /// The authentication expired (`tokens/authn` 410).
    package static var v1AuthnExpired: EnhancedError {
        v1(410, "authentication_session_expired", "Authentication token expired", action: "authentication")
    }
    /// No authentication where one is needed to authorize (403).
    package static var v1AuthnMissingForAuthz: EnhancedError {
        v1(403, "authentication_session_missing", "User not authenticated", action: "authentication")
    }
    /// Expired authentication where one is needed to authorize (403).
    package static var v1AuthnExpiredForAuthz: EnhancedError {
        v1(403, "authentication_session_expired", "Authentication token expired", action: "authentication")
    }
}
