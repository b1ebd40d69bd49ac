import EntitleCore
import Foundation
@testable import AccessEnabler

/// A clock for tests: `sleep` advances virtual time at once (so polling runs instantly) and records the delays.
final class TestClock: AccessEnablerClock {
    private let state: Locked<(now: Date, sleeps: [Double])>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = Locked((start, [])) }
    func now() -> Date { state.withLock { $0.now } }
    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.now = $0.now.addingTimeInterval(seconds); $0.sleeps.append(seconds)
        }
        await Task.yield()
        try Task.checkCancellation()
    }
    func advance(_ seconds: Double) { state.withLock { $0.now = $0.now.addingTimeInterval(seconds) } }
    var sleeps: [Double] { state.withLock { $0.sleeps } }
}

/// A scripted answer that overrides the fake's behaviour for one request.
enum Scripted: Sendable {
    case status(Int, body: String = "", headers: [String: String] = [:])
    case networkError
}

/// An in-memory stand-in for the service's REST API v2 + DCR, for unit tests of the engine only (flow tests run
/// against the real service).
final class FakeService: HTTPTransport {
    struct State: Sendable {
        var requests: [HTTPRequest] = []
        var mvpds: [MVPDConfiguration] = FakeService.demoMVPDs
        var configurationDelay: Double = 0
        var registrations = 0
        var tokenRequests = 0
        var validTokens: Set<String> = []
        var revokedClients: Set<String> = []
        var rejectRegistration = false
        var profiles: [String: Profile] = [:]
        var sessions: [String: String?] = [:]
        var completedCodes: [String: String] = [:]
        var sessionLifetime: Double = 600
        /// When set, a code's login completes (as ``completeLogin(code:mvpd:)``) once the device has polled it this many
        /// times: the poll after them finds the profile. In the service, so that no task races the device's polling.
        var completeLoginAfterPolls: Int?
        var entitlements: [String: Set<String>] = [
            "DemoCable": ["news", "sports"], "DemoFiber": ["news"], "TempPass": ["news", "sports", "movies"],
        ]
        var scripted: [String: [Scripted]] = [:]
        var counter = 0
        var lastCode: String?
        var redirectURIs = [ADOBEPASS_REDIRECT_URL, "entitle-demo://callback"]
        /// When each configuration request arrived (real time), to check that providers are queried in parallel.
        var configurationArrivals: [Date] = []
        /// Awaited before a configuration request is answered (after `configurationDelay`), when set.
        var configurationHold: (@Sendable () async -> Void)?
    }

    static let demoMVPDs: [MVPDConfiguration] = [
        MVPDConfiguration(
            id: "DemoCable", displayName: "Demo Cable", logoUrl: "http://fake/logo/cable.png", hasLogout: false,
            encryptedUserMetadata: ["zip"]),
        MVPDConfiguration(
            id: "DemoFiber", displayName: "Demo Fiber", logoUrl: "http://fake/logo/fiber.png",
            requiresSafariViewController: true, hasLogout: true),
        MVPDConfiguration(
            id: "DemoSSO", displayName: "Demo SSO TV", logoUrl: "http://fake/logo/sso.png", enablePlatformServices: true,
            boardingStatus: "SUPPORTED"),
        MVPDConfiguration(id: "TempPass", displayName: "Try it free", logoUrl: "http://fake/logo/tp.png", authPerAggregator: true, isTempPass: true),
    ]

    let state = Locked(State())
    let clock: TestClock

    init(clock: TestClock) { self.clock = clock }

    func update(_ body: @Sendable (inout State) -> Void) { state.withLock { body(&$0) } }
    func script(_ key: String, _ answers: [Scripted]) { state.withLock { $0.scripted[key, default: []] += answers } }
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    func requests(matching suffix: String) -> [HTTPRequest] { requests.filter { $0.url.path.hasSuffix(suffix) } }

    /// Plays the browser: the login for `code` succeeded at the MVPD.
    func completeLogin(code: String, mvpd: String? = nil) {
        state.withLock { complete(code: code, mvpd: mvpd, state: &$0) }
    }

    private func complete(code: String, mvpd: String?, state: inout State) {
        let resolved = mvpd ?? (state.sessions[code] ?? nil) ?? "DemoCable"
        state.completedCodes[code] = resolved
        state.profiles[resolved] = Self.profile(mvpd: resolved, now: clock.now())
    }

    static func profile(mvpd: String, now: Date, temporary: Bool = false) -> Profile {
        let ms = Int64(now.timeIntervalSince1970 * 1000)
        return Profile(
            notBefore: ms, notAfter: ms + (temporary ? 600_000 : 86_400_000), issuer: temporary ? "Entitle" : mvpd,
            type: temporary ? "temporary" : "regular",
            attributes: [
                "userID": ProfileAttribute(value: .string("alice")), "householdID": ProfileAttribute(value: .string("H-1001")),
                "zip": ProfileAttribute(value: .string("Q0lQSEVSVEVYVA=="), state: "enc"),
                "channelID": ProfileAttribute(value: .array([.string("news"), .string("sports")])),
                "maxRating": ProfileAttribute(value: .string("TV-MA")),
            ])
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isConfiguration = request.url.path.hasSuffix("/configuration")
        let (delay, hold) = state.withLock { state -> (Double, (@Sendable () async -> Void)?) in
            if isConfiguration { state.configurationArrivals.append(Date()) }
            return (state.configurationDelay, state.configurationHold)
        }
        if isConfiguration, delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
        if isConfiguration, let hold { await hold() }
        let key = request.method + " " + request.url.path
        let scripted: Scripted? = state.withLock { state in
            if let polls = state.completeLoginAfterPolls, request.url.path.contains("/profiles/code/") {
                let code = request.url.lastPathComponent
                if state.completedCodes[code] == nil, state.requests.filter({ $0.url.path == request.url.path }).count >= polls {
                    complete(code: code, mvpd: nil, state: &state)
                }
            }
            state.requests.append(request)
            guard var queue = state.scripted[key], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            state.scripted[key] = queue
            return first
        }
        switch scripted {
        case .networkError: throw URLError(.networkConnectionLost)
        case .status(let status, let body, let headers): return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        case nil: return state.withLock { handle(request, state: &$0) }
        }
    }

    private func json<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(value))
    }

    private func form(_ request: HTTPRequest) -> [String: String] {
        FormURLEncoding.parse(String(decoding: request.body ?? Data(), as: UTF8.self))
    }

    private func handle(_ request: HTTPRequest, state: inout State) -> HTTPResponse {
        let path = request.url.path.split(separator: "/").map(String.init)
        let now = clock.now()
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        state.counter += 1
        if path == ["o", "client", "register"] {
            state.registrations += 1
            if state.rejectRegistration { return json(400, OAuthErrorBody(error: "invalid_software_statement")) }
            return json(
                201,
                ClientRegistration(
                    clientID: "client-\(state.registrations)", clientSecret: "secret",
                    redirectURIs: state.redirectURIs, clientIDIssuedAt: 1))
        }
        if path == ["o", "client", "token"] {
            state.tokenRequests += 1
            let client = form(request)["client_id"] ?? ""
            if state.revokedClients.contains(client) { return json(400, OAuthErrorBody(error: "invalid_client")) }
            let token = "token-\(state.tokenRequests)"
            state.validTokens.insert(token)
            return json(201, AccessTokenResponse(id: "t", accessToken: token, createdAt: nowMs, expiresIn: 3600))
        }
        let bearer = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        guard state.validTokens.contains(bearer) else { return json(401, EnhancedError.invalidAccessTokenServiceProvider) }
        guard request.header("AP-Device-Identifier")?.hasPrefix("fingerprint ") == true, request.header("X-Device-Info") != nil else {
            return json(400, EnhancedError.invalidDeviceIdentifier)
        }
        guard path.count >= 4, path[0] == "api", path[1] == "v2", path[2] == "REF" else {
            return json(400, EnhancedError.invalidServiceProvider)
        }
        switch (request.method, Array(path.dropFirst(3))) {
        case ("GET", ["configuration"]):
            return json(
                200,
                ConfigurationResponse(
                    device: "desktop", clientType: "ios", os: "Linux",
                    requestor: RequestorConfiguration(
                        id: "REF", name: "Reference Network",
                        domains: [.init(name: "ref.example")], mvpds: state.mvpds)))
        case ("GET", ["profiles"]):
            return json(200, ProfilesResponse(profiles: state.profiles))
        case ("GET", let rest) where rest.count == 3 && rest[0] == "profiles" && rest[1] == "code":
            guard let mvpd = state.completedCodes[rest[2]], let profile = state.profiles[mvpd] else {
                return json(404, EnhancedError.notFound)
            }
            return json(200, ProfilesResponse(profiles: [mvpd: profile]))
        case ("GET", let rest) where rest.count == 2 && rest[0] == "profiles":
            return json(200, ProfilesResponse(profiles: state.profiles[rest[1]].map { [rest[1]: $0] } ?? [:]))
        case ("POST", ["sessions"]):
            let fields = form(request)
            let mvpd = fields["mvpd"]
            if let mvpd, !state.mvpds.contains(where: { $0.id == mvpd }) { return json(400, EnhancedError.invalidMVPD) }
            if mvpd == "TempPass" {
                state.profiles["TempPass"] = Self.profile(mvpd: "TempPass", now: now, temporary: true)
                return json(
                    201,
                    SessionResponse(
                        actionName: "authorize", actionType: "direct", reasonType: "temporary",
                        url: "/api/v2/REF/decisions/authorize/TempPass", mvpd: "TempPass", serviceProvider: "REF"))
            }
            let code = "CODE\(state.counter)"
            state.sessions[code] = mvpd
            state.lastCode = code
            return json(
                201,
                SessionResponse(
                    actionName: "authenticate", actionType: "interactive", reasonType: "none",
                    url: "/api/v2/authenticate/REF/\(code)", code: code, sessionId: UUID().uuidString, mvpd: mvpd,
                    serviceProvider: "REF", notBefore: String(nowMs),
                    notAfter: String(nowMs + Int64(state.sessionLifetime * 1000))))
        case ("POST", let rest) where rest.count == 3 && rest[0] == "decisions":
            let mvpd = rest[2]
            guard state.profiles[mvpd] != nil else {
                return json(403, EnhancedError.authenticatedProfileMissing)
            }
            guard let body = try? JSONDecoder().decode(DecisionsRequest.self, from: request.body ?? Data()) else {
                return json(400, EnhancedError.invalidResources)
            }
            let allowed = state.entitlements[mvpd] ?? []
            let decisions = body.resources.map { resource -> EntitleCore.Decision in
                if allowed.contains(resource) {
                    let token =
                        rest[1] == "authorize"
                        ? MediaTokenInfo(notBefore: nowMs, notAfter: nowMs + 420_000, serializedToken: "media-\(resource)-\(state.counter)") : nil
                    return EntitleCore.Decision(
                        resource: resource, serviceProvider: "REF", mvpd: mvpd, source: mvpd == "TempPass" ? "temppass" : "mvpd",
                        authorized: true, token: token, notBefore: nowMs, notAfter: nowMs + 3_600_000)
                }
                return EntitleCore.Decision(
                    resource: resource, serviceProvider: "REF", mvpd: mvpd, source: "mvpd", authorized: false,
                    error: EnhancedError.authorizationDeniedByMVPD.with(details: "Your Demo Cable package does not include \(resource)."))
            }
            return json(200, DecisionsResponse(decisions: decisions))
        case ("GET", let rest) where rest.count == 2 && rest[0] == "logout":
            let mvpd = rest[1]
            state.profiles.removeValue(forKey: mvpd)
            let action: LogoutAction =
                switch mvpd {
                case "DemoFiber":
                    LogoutAction(actionName: "logout", actionType: "interactive", mvpd: mvpd, url: "/adobe-services/logout?mso_id=DemoFiber")
                case "DemoSSO": LogoutAction(actionName: "partner_logout", actionType: "partner_interactive", mvpd: mvpd)
                default: LogoutAction(actionName: "complete", actionType: "none", mvpd: mvpd)
                }
            return json(200, LogoutsResponse(logouts: [mvpd: action]))
        default:
            return json(404, EnhancedError.notFound)
        }
    }
}

/// Routes requests to one fake per host (several service providers).
struct RoutingTransport: HTTPTransport {
    let services: [String: FakeService]
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let host = request.url.host, let service = services[host] else { throw URLError(.cannotFindHost) }
        return try await service.send(request)
    }
}
