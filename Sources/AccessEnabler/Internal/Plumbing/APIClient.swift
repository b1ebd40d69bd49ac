import EntitleCore
import Foundation

/// One REST API v2 call.
struct APICall: Sendable {
    var method: String
    /// Path segments after the base URL, unescaped (`["api", "v2", "REF", "profiles", "DemoCable"]`).
    var path: [String]
    var query: [(String, String)] = []
    var form: [(String, String)]? = nil
    var json: Data? = nil
    var headers: [String: String] = [:]
}

/// Sends REST API v2 calls to one service with `Authorization: Bearer`, refreshing the token once and retrying once
/// on a 401; maps every failure to an ``AccessEnablerError``.
struct APIClient: Sendable {
    let baseURL: URL
    let credentials: CredentialManager
    let transport: any HTTPTransport

    /// Builds the URL of `path` + `query` under the base URL.
    func url(_ path: [String], query: [(String, String)] = []) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/" + path.map { FormURLEncoding.escape($0) }.joined(separator: "/")
        if !query.isEmpty { text += "?" + FormURLEncoding.encode(query) }
        return URL(string: text) ?? baseURL
    }

    /// Sends `call` with the common `headers`; returns a 2xx answer or throws.
    func send(_ call: APICall, headers: [String: String]) async throws(AccessEnablerError) -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            let token = try await credentials.accessToken(headers: headers)
            var request = HTTPRequest(method: call.method, url: url(call.path, query: call.query), headers: headers)
            request.headers.merge(call.headers) { $1 }
            request.headers["Authorization"] = "Bearer " + token
            request.headers["Accept"] = "application/json"
            if let form = call.form {
                request.headers["Content-Type"] = "application/x-www-form-urlencoded"
                request.body = Data(FormURLEncoding.encode(form).utf8)
            } else if let json = call.json {
                request.headers["Content-Type"] = "application/json"
                request.body = json
            }
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch is CancellationError {
                throw AccessEnablerError(code: .cancelled, message: "The request was cancelled.")
            } catch {
                throw AccessEnablerError.network("The service could not be reached", transportError: error)
            }
            if (200..<300).contains(response.status) { return response }
            let enhanced = try? JSONDecoder().decode(EnhancedError.self, from: response.body)
            if response.status == 401 {
                if attempt == 1 {
                    await credentials.reject(token, clientRevoked: enhanced?.code == .invalidAccessTokenClientApplication)
                    continue
                }
                throw AccessEnablerError(
                    code: .accessToken, message: enhanced?.message ?? "The access token was rejected.",
                    statusID: AccessEnablerStatus.ID.accessTokenFailed, enhancedError: enhanced, httpStatus: 401)
            }
            if response.status == 429 { throw Self.throttled(response, enhanced: enhanced) }
            throw AccessEnablerError(
                code: .server, message: enhanced?.message ?? "The service answered HTTP \(response.status).",
                details: enhanced?.details, enhancedError: enhanced, httpStatus: response.status)
        }
    }

    /// Sends `call` and decodes a 2xx JSON answer.
    func send<T: Decodable>(_ call: APICall, headers: [String: String], as type: T.Type) async throws(AccessEnablerError) -> T {
        let response = try await send(call, headers: headers)
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw AccessEnablerError(
                code: .invalidResponse, message: "The service's answer could not be read: \(error)",
                httpStatus: response.status)
        }
    }

    /// The error of a 429 answer, with its `Retry-After` seconds.
    static func throttled(_ response: HTTPResponse, enhanced: EnhancedError? = nil) -> AccessEnablerError {
        let retryAfter = response.header("Retry-After").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return AccessEnablerError(
            code: .throttled, message: enhanced?.message ?? "Too many requests.",
            enhancedError: enhanced, httpStatus: 429, retryAfter: retryAfter ?? 1)
    }
}
