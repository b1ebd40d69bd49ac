import Crypto
import EntitleCore
import Foundation

/// Dynamic Client Registration and access tokens for one service (base URL): registers lazily from the software
/// statement, persists the credentials, and refreshes the token single-flight (see ``AccessTokenStateMachine``).
actor CredentialManager {
    let baseURL: URL
    private let softwareStatement: String
    private let redirectURI: String?
    private let transport: any HTTPTransport
    private let clock: any AccessEnablerClock
    private let storage: SecureStorage
    private var machine = AccessTokenStateMachine()
    private var loaded = false
    private var waiters: [CheckedContinuation<String, any Error>] = []
    /// Headers sent on the DCR calls (`X-Device-Info`, `User-Agent`).
    private var deviceHeaders: [String: String] = [:]
    /// Number of registrations and token requests made (diagnostics and tests).
    private(set) var registrations = 0
    private(set) var tokenRequests = 0

    init(
        baseURL: URL, softwareStatement: String, redirectURI: String?, transport: any HTTPTransport,
        clock: any AccessEnablerClock, storage: SecureStorage
    ) {
        self.baseURL = baseURL
        self.softwareStatement = softwareStatement
        self.redirectURI = redirectURI
        self.transport = transport
        self.clock = clock
        self.storage = storage
    }

    var storageKey: String {
        let digest = SHA256.hash(data: Data((baseURL.absoluteString + "\n" + softwareStatement).utf8))
        return "dcr." + digest.prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// Where the current access token is kept, next to the credentials it was issued to.
    var tokenStorageKey: String { storageKey + ".token" }

    /// The registered redirect URIs (empty before registration).
    func registeredRedirectURIs() async -> [String] {
        await loadIfNeeded()
        return machine.credentials?.redirectURIs ?? []
    }

    /// A valid access token, registering and refreshing as needed; `headers` (`X-Device-Info`, `User-Agent` and the
    /// `setOptions` values) go with the DCR calls.
    func accessToken(headers: [String: String]? = nil) async throws(AccessEnablerError) -> String {
        if let headers {
            deviceHeaders = headers.filter {
                ["x-device-info", "user-agent", "ap-visitor-identifier", "ap-application-profile"].contains($0.key.lowercased())
            }
        }
        await loadIfNeeded()
        let action = machine.tokenNeeded(now: clock.now())
        switch action {
        case .use(let token):
            return token
        case .wait:
            do {
                return try await withCheckedThrowingContinuation { waiters.append($0) }
            } catch let error as AccessEnablerError {
                throw error
            } catch {
                throw AccessEnablerError(code: .accessToken, message: "\(error)", statusID: AccessEnablerStatus.ID.accessTokenFailed)
            }
        case .register, .fetchToken:
            let result = await refresh(starting: action)
            let pending = waiters
            waiters = []
            switch result {
            case .success(let token):
                machine.refreshSucceeded(token)
                try? await storage.write(token, tokenStorageKey)
                for waiter in pending { waiter.resume(returning: token.value) }
                return token.value
            case .failure(let error):
                machine.refreshFailed()
                for waiter in pending { waiter.resume(throwing: error) }
                throw error
            }
        }
    }

    /// A call made with `token` was answered 401; `clientRevoked` when the service no longer knows the client.
    func reject(_ token: String, clientRevoked: Bool) async {
        if machine.tokenRejected(token, clientRevoked: clientRevoked) { await storage.remove(tokenStorageKey) }
        if clientRevoked { await storage.remove(storageKey) }
    }

    private func loadIfNeeded() async {
        guard !loaded else { return }
        loaded = true
        if let stored = await storage.read(ClientCredentials.self, storageKey), machine.credentials == nil {
            machine = AccessTokenStateMachine(credentials: stored, token: await storage.read(CachedAccessToken.self, tokenStorageKey))
        }
    }

    private func refresh(starting first: AccessTokenStateMachine.Action) async -> Result<CachedAccessToken, AccessEnablerError> {
        var action = first
        var registeredNow = false
        while true {
            switch action {
            case .register:
                switch await register() {
                case .success(let credentials):
                    registeredNow = true
                    try? await storage.write(credentials, storageKey)
                    action = machine.registered(credentials)
                case .failure(let error):
                    return .failure(error)
                }
            case .fetchToken(let credentials):
                switch await fetchToken(credentials) {
                case .success(let token):
                    return .success(token)
                case .failure(let error) where error.enhancedError == nil && error.details == "invalid_client" && !registeredNow:
                    await storage.remove(storageKey)
                    await storage.remove(tokenStorageKey)
                    action = machine.credentialsRejected()
                case .failure(let error):
                    return .failure(error)
                }
            case .use, .wait:
                return .failure(
                    AccessEnablerError(
                        code: .accessToken, message: "Unexpected token state.",
                        statusID: AccessEnablerStatus.ID.accessTokenFailed))
            }
        }
    }

    private func register() async -> Result<ClientCredentials, AccessEnablerError> {
        registrations += 1
        let body = ClientRegistrationRequest(softwareStatement: softwareStatement, redirectURI: redirectURI)
        var headers = deviceHeaders
        headers["Content-Type"] = "application/json;charset=utf-8"
        headers["Accept"] = "application/json"
        let request = HTTPRequest(
            method: "POST", url: baseURL.appendingPathComponent("o/client/register"), headers: headers,
            body: try? JSONEncoder().encode(body))
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch {
            return .failure(AccessEnablerError.network("Client registration failed", transportError: error))
        }
        if response.status == 429 { return .failure(APIClient.throttled(response)) }
        guard (200..<300).contains(response.status) else {
            let oauth = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body)
            if response.status >= 500 {
                return .failure(
                    AccessEnablerError(
                        code: .server, message: "Client registration failed with HTTP \(response.status).",
                        httpStatus: response.status))
            }
            return .failure(
                AccessEnablerError(
                    code: .registration,
                    message: oauth?.errorDescription ?? "The software statement was rejected.",
                    statusID: AccessEnablerStatus.ID.notRegistered, details: oauth?.error,
                    httpStatus: response.status))
        }
        guard let registration = try? JSONDecoder().decode(ClientRegistration.self, from: response.body) else {
            return .failure(
                AccessEnablerError(
                    code: .registration, message: "The registration answer could not be read.",
                    statusID: AccessEnablerStatus.ID.notRegistered, httpStatus: response.status))
        }
        return .success(
            ClientCredentials(
                clientID: registration.clientID, clientSecret: registration.clientSecret,
                redirectURIs: registration.redirectURIs))
    }

    private func fetchToken(_ credentials: ClientCredentials) async -> Result<CachedAccessToken, AccessEnablerError> {
        tokenRequests += 1
        var headers = deviceHeaders
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Accept"] = "application/json"
        let form = FormURLEncoding.encode([
            ("client_id", credentials.clientID), ("client_secret", credentials.clientSecret),
            ("grant_type", "client_credentials"),
        ])
        let request = HTTPRequest(
            method: "POST", url: baseURL.appendingPathComponent("o/client/token"), headers: headers,
            body: Data(form.utf8))
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch {
            return .failure(AccessEnablerError.network("Access token request failed", transportError: error))
        }
        if response.status == 429 { return .failure(APIClient.throttled(response)) }
        guard (200..<300).contains(response.status) else {
            let oauth = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body)
            if response.status >= 500 {
                return .failure(
                    AccessEnablerError(
                        code: .server, message: "Access token request failed with HTTP \(response.status).",
                        httpStatus: response.status))
            }
            return .failure(
                AccessEnablerError(
                    code: .accessToken, message: oauth?.errorDescription ?? "No access token was issued.",
                    statusID: AccessEnablerStatus.ID.accessTokenFailed, details: oauth?.error,
                    httpStatus: response.status))
        }
        guard let token = try? JSONDecoder().decode(AccessTokenResponse.self, from: response.body) else {
            return .failure(
                AccessEnablerError(
                    code: .accessToken, message: "The token answer could not be read.",
                    statusID: AccessEnablerStatus.ID.accessTokenFailed, httpStatus: response.status))
        }
        let lifetime = max(0, TimeInterval(token.expiresIn))
        return .success(CachedAccessToken(value: token.accessToken, expiresAt: clock.now().addingTimeInterval(lifetime)))
    }
}
