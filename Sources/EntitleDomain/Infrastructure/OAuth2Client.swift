import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import NIOHTTP1

/// The server-to-server calls to an OAuth 2.0 MVPD: the token endpoint (authorization code → tokens, refresh token →
/// access token; RFC 6749 §4.1.3, §6) and the user-profile (userinfo) endpoint. Every failure is an Enhanced Error Code
/// naming the MVPD: a timeout is `network_connection_timeout`; an error answer, an unreachable endpoint or malformed
/// JSON is `network_received_error`; a refresh token the MVPD no longer accepts (`invalid_grant`) is
/// `authenticated_profile_invalidated` (the user signs in again). Tokens and the client secret are never logged.
package struct OAuth2Client: Sendable {
    package let httpClient: HTTPClient
    package let timeoutSeconds: Int64

    /// The largest answer read from an MVPD.
    package static let maximumAnswerBytes = 256 * 1024

    /// A token endpoint's answer.
    package struct Tokens: Sendable, Decodable {
        /// The access token.
        package var accessToken: String
        /// The refresh token, when one was issued (or replaced).
        package var refreshToken: String?

        package enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token"
        }

        /// Creates the value from each of its stored properties.
        package init(accessToken: String, refreshToken: String? = nil) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    /// Where and as whom Entitle calls the MVPD.
    package struct Endpoint: Sendable {
        /// The MVPD's settings.
        package let settings: MVPDOAuth2Record
        /// Entitle's client secret at the MVPD (decrypted).
        package let clientSecret: String
        /// The MVPD's display name, for error details.
        package let mvpdName: String

        /// Creates the value from each of its stored properties.
        package init(settings: MVPDOAuth2Record, clientSecret: String, mvpdName: String) {
            self.settings = settings
            self.clientSecret = clientSecret
            self.mvpdName = mvpdName
        }
    }

    /// A failure of a call, as the Enhanced Error Code the device gets.
    package struct Failure: Error, Sendable {
        /// The error.
        package let error: EnhancedError
        /// The refresh token was refused (`invalid_grant`): the sign-in is over.
        package var grantRevoked = false

        /// Creates the value from each of its stored properties.
        package init(error: EnhancedError, grantRevoked: Bool = false) {
            self.error = error
            self.grantRevoked = grantRevoked
        }
    }

    /// Exchanges an authorization code (with its PKCE verifier) for tokens.
    package func exchange(code: String, verifier: String?, redirectURI: String, at endpoint: Endpoint) async throws(Failure) -> Tokens {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        return try await tokenRequest(fields, at: endpoint)
    }

    /// Exchanges the refresh token for an access token.
    package func refresh(_ refreshToken: String, at endpoint: Endpoint) async throws(Failure) -> Tokens {
        try await tokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], at: endpoint)
    }

    /// The user's profile from the userinfo endpoint: a JSON object.
    package func userinfo(accessToken: String, at endpoint: Endpoint) async throws(Failure) -> [String: JSONValue] {
        var request = HTTPClientRequest(url: endpoint.settings.userinfoURL)
        request.headers.add(name: "Authorization", value: "Bearer " + accessToken)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, body) = try await send(request, name: endpoint.mvpdName)
        guard status == .ok else {
            throw Failure(error: Self.received("The TV provider \(endpoint.mvpdName) refused the user profile request (HTTP \(status.code))."))
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            throw Failure(error: Self.received("The TV provider \(endpoint.mvpdName) answered the user profile request with malformed JSON."))
        }
        return claims
    }

    private func tokenRequest(_ fields: [(String, String)], at endpoint: Endpoint) async throws(Failure) -> Tokens {
        let settings = endpoint.settings
        var fields = fields
        var request = HTTPClientRequest(url: settings.tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if settings.tokenAuthMethod == "client_secret_post" {
            fields += [("client_id", settings.clientID), ("client_secret", endpoint.clientSecret)]
        } else {
            // RFC 6749 §2.3.1: both parts form-encoded, then Basic.
            let pair = FormURLEncoding.escape(settings.clientID) + ":" + FormURLEncoding.escape(endpoint.clientSecret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(fields)))
        let (status, body) = try await send(request, name: endpoint.mvpdName)
        let name = endpoint.mvpdName
        guard status == .ok else {
            let code = (try? JSONDecoder().decode([String: JSONValue].self, from: body))?["error"]?.stringValue
            if code == "invalid_grant" {
                throw Failure(
                    error: EnhancedError.authenticatedProfileInvalidated.with(
                        details: "The TV provider \(name) no longer accepts this sign-in. Sign in again."),
                    grantRevoked: true)
            }
            let reason = code.map { " (\($0.prefix(64)))" } ?? ""
            throw Failure(error: Self.received("The TV provider \(name) token endpoint answered with HTTP \(status.code)\(reason)."))
        }
        guard let tokens = try? JSONDecoder().decode(Tokens.self, from: body), !tokens.accessToken.isEmpty else {
            throw Failure(error: Self.received("The TV provider \(name) token endpoint answered with malformed JSON."))
        }
        return tokens
    }

    private func send(_ request: HTTPClientRequest, name: String) async throws(Failure) -> (HTTPResponseStatus, Data) {
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(timeoutSeconds))
            let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
            return (response.status, Data(buffer: body))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .connectTimeout || error == .readTimeout {
            throw Failure(error: EnhancedError.networkConnectionTimeout.with(details: "The TV provider \(name) did not answer in time."))
        } catch {
            throw Failure(error: Self.received("The TV provider \(name) could not be reached."))
        }
    }

    private static func received(_ details: String) -> EnhancedError { EnhancedError.networkReceivedError.with(details: details) }

    /// Creates the value from each of its stored properties.
    package init(httpClient: HTTPClient, timeoutSeconds: Int64) {
        self.httpClient = httpClient
        self.timeoutSeconds = timeoutSeconds
    }
}
