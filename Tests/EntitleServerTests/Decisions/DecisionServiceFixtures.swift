import _CryptoExtras
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The MVPD's side of a decision in ``DecisionServiceTests``: answers the test set per resource (a permit unless set)
/// and records every question — one resource, or a preflight call with several.
final class ScriptedMVPD: MVPDAuthorizing {
    private let answers = Mutex<[String: MVPDAuthorizationClient.Verdict]>([:])
    private let questions = Mutex<[[String]]>([])

    /// Sets the answer about `resource`.
    func answer(_ resource: String, _ verdict: MVPDAuthorizationClient.Verdict) { answers.withLock { $0[resource] = verdict } }

    /// Every question asked so far: the resources of each call, in order.
    var asked: [[String]] { questions.withLock { $0 } }

    func authorize(
        mvpd: MVPDRecord, userID: String, resource: String, kind: MVPDAuthorizationProtocol, clientIP: String?, bearer: String?,
        xacml: XACMLCall
    ) async -> MVPDAuthorizationClient.Verdict {
        questions.withLock { $0.append([resource]) }
        return answers.withLock { $0[resource] } ?? .authorized
    }

    func preflightXACML(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?, call: XACMLCall
    ) async -> [MVPDAuthorizationClient.Verdict] {
        questions.withLock { $0.append(resources) }
        return answers.withLock { answers in resources.map { answers[$0] ?? .authorized } }
    }

    func preflightREST(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?
    ) async -> [MVPDAuthorizationClient.Verdict] {
        await preflightXACML(mvpd: mvpd, userID: userID, resources: resources, clientIP: clientIP, bearer: bearer, call: XACMLCall())
    }
}

/// An OAuth 2.0 MVPD's token answer in ``DecisionServiceTests``: no grant (the MVPD's API key is used).
struct NoOAuth2Grant: OAuth2AccessTokens {
    func accessToken(profile: ProfileRecord, mvpd: MVPDRecord) async -> Result<String?, EnhancedError> { .success(nil) }
}

/// Media tokens signed with a test RSA key (no key store).
struct TestMediaTokens: MediaTokenSigning {
    /// One key for the whole run: RSA-2048 generation is slow.
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    func mediaTokenSigner(requestor: String) async throws -> MediaTokenIssuer {
        MediaTokenIssuer(signer: MediaTokenSigner(privateKey: Self.key), ttl: 420_000, sessionGUIDs: SessionGUIDCache())
    }
}

/// An MVPD authorization endpoint on loopback that takes the request and does not answer until the test releases it
/// (or 20 s pass); it counts the requests it received.
final class StalledMVPD: Sendable {
    private let released = Atomic<Bool>(false)
    private let received = Atomic<Int>(0)

    /// The requests received so far.
    var requests: Int { received.load(ordering: .relaxed) }

    /// Runs the endpoint on an ephemeral loopback port while `body` runs (given its URL); releases the held requests and
    /// stops the server afterwards, whatever `body` does.
    func run(_ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("/authorize") { _, _ -> Response in
            self.received.add(1, ordering: .relaxed)
            for _ in 0..<1000 where !self.released.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(20)) }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"authorized": true}"#)))
        }
        let release: () -> Void = { self.released.store(true, ordering: .relaxed) }
        try await withLoopbackServer(router, beforeStopping: release) { base in try await body(base + "/authorize") }
    }
}

/// The real MVPD client, counting the authorization calls `DecisionService` makes through it (whether or not a call
/// reaches the MVPD before it times out).
final class CountingMVPDClient: MVPDAuthorizing {
    let client: MVPDAuthorizationClient
    private let calls = Atomic<Int>(0)

    init(_ client: MVPDAuthorizationClient) { self.client = client }

    /// The authorization calls made so far.
    var count: Int { calls.load(ordering: .relaxed) }

    func authorize(
        mvpd: MVPDRecord, userID: String, resource: String, kind: MVPDAuthorizationProtocol, clientIP: String?, bearer: String?,
        xacml: XACMLCall
    ) async -> MVPDAuthorizationClient.Verdict {
        calls.add(1, ordering: .relaxed)
        return await client.authorize(
            mvpd: mvpd, userID: userID, resource: resource, kind: kind, clientIP: clientIP, bearer: bearer, xacml: xacml)
    }

    func preflightXACML(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?, call: XACMLCall
    ) async -> [MVPDAuthorizationClient.Verdict] {
        await client.preflightXACML(mvpd: mvpd, userID: userID, resources: resources, clientIP: clientIP, bearer: bearer, call: call)
    }

    func preflightREST(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?
    ) async -> [MVPDAuthorizationClient.Verdict] {
        await client.preflightREST(mvpd: mvpd, userID: userID, resources: resources, clientIP: clientIP, bearer: bearer)
    }
}
