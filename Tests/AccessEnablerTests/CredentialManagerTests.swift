import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct CredentialManagerTests {
    func manager(_ service: FakeService, store: InMemoryTokenStore = InMemoryTokenStore()) -> CredentialManager {
        CredentialManager(
            baseURL: URL(string: "http://fake")!, softwareStatement: "statement", redirectURI: "entitle-demo://callback",
            transport: service, clock: service.clock, storage: SecureStorage(store: store, check: .INTEGRITY_CHECK_ALL))
    }

    @Test func concurrentCallersShareOneRegistrationAndOneToken() async throws {
        let service = FakeService(clock: TestClock())
        let credentials = manager(service)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await credentials.accessToken() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["token-1"])
        #expect(service.state.withLock { ($0.registrations, $0.tokenRequests) } == (1, 1))
        let body = try #require(service.requests(matching: "/o/client/register").first?.body)
        let registration = try JSONDecoder().decode(ClientRegistrationRequest.self, from: body)
        #expect(registration.softwareStatement == "statement" && registration.redirectURI == "entitle-demo://callback")
    }

    @Test func credentialsAndTokenArePersistedAndReusedUntilTheTokenExpires() async throws {
        let store = InMemoryTokenStore()
        let clock = TestClock()
        let service = FakeService(clock: clock)
        let first = try await manager(service, store: store).accessToken()
        // A new instance (a new process) reuses the stored token: no registration, no token request.
        #expect(try await manager(service, store: store).accessToken() == first)
        #expect(service.state.withLock { ($0.registrations, $0.tokenRequests) } == (1, 1))
        // Within a minute of its expiry (3600 s) the token is replaced, with the stored credentials.
        clock.advance(3600 - 30)
        #expect(try await manager(service, store: store).accessToken() != first)
        #expect(service.state.withLock { ($0.registrations, $0.tokenRequests) } == (1, 2))
    }

    @Test func rejectedClientRegistersAgainOnce() async throws {
        let store = InMemoryTokenStore()
        let service = FakeService(clock: TestClock())
        _ = try await manager(service, store: store).accessToken()
        service.update { $0.revokedClients = ["client-1"] }
        service.clock.advance(3600)
        let token = try await manager(service, store: store).accessToken()
        #expect(token == "token-3")
        #expect(service.state.withLock { $0.registrations } == 2)
    }

    @Test func rejectedSoftwareStatementIsR400() async {
        let service = FakeService(clock: TestClock())
        service.update { $0.rejectRegistration = true }
        await #expect(throws: AccessEnablerError.self) { try await manager(service).accessToken() }
        do { _ = try await manager(service).accessToken() } catch {
            #expect(error.statusID == "R400" && error.code == .registration && error.details == "invalid_software_statement")
        }
    }

    @Test func tokenEndpointFailureIsR401() async {
        let service = FakeService(clock: TestClock())
        service.script("POST /o/client/token", [.status(400, body: #"{"error":"unsupported_grant_type"}"#)])
        do { _ = try await manager(service).accessToken(); Issue.record("expected failure") } catch {
            #expect(error.statusID == "R401" && error.code == .accessToken)
        }
    }

    @Test func expiredTokenIsRefreshed() async throws {
        let clock = TestClock()
        let service = FakeService(clock: clock)
        let credentials = manager(service)
        #expect(try await credentials.accessToken() == "token-1")
        clock.advance(3600)
        #expect(try await credentials.accessToken() == "token-2")
        #expect(service.state.withLock { $0.registrations } == 1)
    }
}
