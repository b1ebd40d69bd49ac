import AsyncHTTPClient
import EntitleCore
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A plain REST API v2 + DCR client over real HTTP, as a programmer's app or a script would write it from Adobe's
/// documentation. Used by `entitle bench` and the end-to-end tests; the SDK has its own transport.
package struct RESTClient: Sendable {
    /// An HTTP answer.
    package struct Answer: Sendable {
        /// Status code.
        package let status: Int
        /// Headers.
        package let headers: HTTPHeaders
        /// Body bytes.
        package let body: Data
        /// Decodes the body as JSON.
        package func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(T.self, from: body) }
        /// The body as text.
        package var text: String { String(decoding: body, as: UTF8.self) }

        /// Wraps an answer.
        package init(status: Int, headers: HTTPHeaders, body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Base URL of the service.
    package let baseURL: String
    /// Requestor id.
    package let serviceProvider: String
    /// Device id sent as `AP-Device-Identifier`.
    package var deviceID: String
    /// Access token, once obtained.
    package var accessToken: String?
    /// Client information sent as `X-Device-Info`.
    package var deviceInfo = DeviceInfo(
        primaryHardwareType: "SetTopBox", model: "Entitle", version: "1", osName: "Linux", osVersion: "1",
        connectionType: "LAN")
    let transport: ServiceTransport

    /// Creates a client over real HTTP.
    package init(httpClient: HTTPClient, baseURL: String, serviceProvider: String, deviceID: String) {
        self.init(transport: .httpClient(httpClient), baseURL: baseURL, serviceProvider: serviceProvider, deviceID: deviceID)
    }

    /// Creates a client over `transport`.
    package init(transport: ServiceTransport, baseURL: String, serviceProvider: String, deviceID: String) {
        self.transport = transport
        self.baseURL = baseURL
        self.serviceProvider = serviceProvider
        self.deviceID = deviceID
    }

    /// Sends a request; `form` becomes an urlencoded body, `json` a JSON body.
    package func send(
        _ method: HTTPMethod, _ path: String, form: [(String, String)]? = nil, json: Data? = nil,
        headers extra: [(String, String)] = [], authorized: Bool = true
    ) async throws -> Answer {
        var request = ServiceTransport.Request(method: method, url: path.hasPrefix("http") ? path : baseURL + path, headers: [:])
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "X-Device-Info", value: deviceInfo.headerValue())
        if let identifier = DeviceIdentifier(rawValue: deviceID) { request.headers.add(name: "AP-Device-Identifier", value: identifier.headerValue) }
        if authorized, let accessToken { request.headers.add(name: "Authorization", value: "Bearer " + accessToken) }
        for (name, value) in extra { request.headers.replaceOrAdd(name: name, value: value) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = Data(FormURLEncoding.encode(form).utf8)
        } else if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = json
        }
        return try await transport.send(request)
    }

    /// Registers with a software statement and fetches an access token.
    package mutating func registerAndAuthorize(softwareStatement: String, redirectURI: String? = nil) async throws -> ClientRegistration {
        let registration = try await send(
            .POST, "/o/client/register",
            json: JSONEncoder().encode(ClientRegistrationRequest(softwareStatement: softwareStatement, redirectURI: redirectURI)),
            authorized: false)
        guard registration.status == 201 else { throw BrowserError("Registration failed: HTTP \(registration.status) \(registration.text)") }
        let client = try registration.decode(ClientRegistration.self)
        let token = try await send(
            .POST, "/o/client/token",
            form: [
                ("client_id", client.clientID), ("client_secret", client.clientSecret),
                ("grant_type", "client_credentials"),
            ], authorized: false)
        guard token.status == 201 || token.status == 200 else { throw BrowserError("Token failed: HTTP \(token.status) \(token.text)") }
        accessToken = try token.decode(AccessTokenResponse.self).accessToken
        return client
    }

    /// `POST /api/v2/{sp}/sessions`.
    package func createSession(mvpd: String?, redirectURL: String?, domain: String? = nil) async throws -> Answer {
        var form: [(String, String)] = []
        if let mvpd { form.append(("mvpd", mvpd)) }
        if let redirectURL { form.append(("redirectUrl", redirectURL)) }
        if let domain { form.append(("domainName", domain)) }
        return try await send(.POST, "/api/v2/\(serviceProvider)/sessions", form: form)
    }

    /// `POST /api/v2/{sp}/decisions/authorize|preauthorize/{mvpd}`.
    package func decisions(_ kind: String, mvpd: String, resources: [String]) async throws -> Answer {
        try await send(
            .POST, "/api/v2/\(serviceProvider)/decisions/\(kind)/\(mvpd)", json: JSONEncoder().encode(DecisionsRequest(resources: resources)))
    }
}
