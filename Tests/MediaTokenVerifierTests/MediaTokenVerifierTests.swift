import EntitleCore
import Foundation
@testable import MediaTokenVerifier
import Testing

@Suite struct MediaTokenVerifierTests {
    let verifier = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), clockSkew: .seconds(30))
    let inLifetime = Fixtures.issue.addingTimeInterval(60)

    @Test func validTokenReturnsDecodedFields() async {
        let result = await verifier.verify(Fixtures.serialized(), requestor: "REF", resource: "news", now: inLifetime)
        #expect(result.status == .valid)
        #expect(result.isValid && result.signatureVerified)
        #expect(result.sessionGUID == "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b")
        #expect(result.requestorID == "REF")
        #expect(result.resourceID == "news")
        #expect(result.mvpdID == "DemoCable")
        #expect(result.proxyMvpdID == "")
        #expect(result.issueTime == Fixtures.issue)
        #expect(result.timeToLive == .milliseconds(420_000))
        #expect(result.expiresAt == Fixtures.issue.addingTimeInterval(420))
    }

    @Test func surroundingWhitespaceIsIgnored() async {
        let result = await verifier.verify("\n  " + Fixtures.serialized() + "\r\n", requestor: nil, resource: nil, now: inLifetime)
        #expect(result.status == .valid)
    }

    @Test func nilRequestorAndResourceCheckOnlySignatureAndLifetime() async {
        let result = await verifier.verify(
            Fixtures.serialized(Fixtures.token(resource: "movies", requestor: "OTHER")),
            requestor: nil, resource: nil, now: inLifetime)
        #expect(result.status == .valid)
    }

    @Test func invalidFormat() async {
        for input in [
            "", "not base64 !!", Data("hello".utf8).base64EncodedString(),
            Data("<signatureInfo>abc<signatureInfo><x/>".utf8).base64EncodedString(),
        ] {
            let result = await verifier.verify(input, requestor: "REF", resource: "news", now: inLifetime)
            #expect(result.status == .invalidFormat, "\(input)")
            #expect(result.token == nil)
        }
    }

    @Test func tokenSignedByUntrustedKeyHasInvalidSignatureButShowsFields() async {
        let result = await verifier.verify(
            Fixtures.serialized(key: Fixtures.strangerKey), requestor: "REF", resource: "news",
            now: inLifetime)
        #expect(result.status == .invalidSignature)
        #expect(!result.signatureVerified)
        #expect(result.resourceID == "news")
    }

    @Test func signatureOverDifferentBytesIsInvalid() async throws {
        let other = try MediaTokenEnvelope(serialized: Fixtures.serialized(Fixtures.token(resource: "movies")))
        let wanted = try MediaTokenEnvelope(serialized: Fixtures.serialized())
        let spliced = Fixtures.assemble(signature: other.signature, body: Array(wanted.body))
        let result = await verifier.verify(spliced, requestor: "REF", resource: "news", now: inLifetime)
        #expect(result.status == .invalidSignature)
    }

    @Test func wrongRequestor() async {
        let result = await verifier.verify(Fixtures.serialized(), requestor: "NBC", resource: "news", now: inLifetime)
        #expect(result.status == .invalidRequestor)
    }

    @Test func wrongResource() async {
        let result = await verifier.verify(Fixtures.serialized(), requestor: "REF", resource: "movies", now: inLifetime)
        #expect(result.status == .invalidResource)
    }

    @Test func lifetimeBoundariesWithClockSkew() async {
        let token = Fixtures.serialized()
        func status(at offset: TimeInterval) async -> VerificationStatus {
            await verifier.verify(token, requestor: "REF", resource: "news", now: Fixtures.issue.addingTimeInterval(offset)).status
        }
        #expect(await status(at: -30) == .valid)  // skew before issue
        #expect(await status(at: -30.001) == .expired)  // issued in the future beyond the skew
        #expect(await status(at: 420 + 29.999) == .valid)
        #expect(await status(at: 420 + 30) == .expired)
        #expect(await status(at: 86_400) == .expired)
    }

    @Test func zeroSkewAndClampedSkew() async {
        let strict = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), clockSkew: .zero)
        let token = Fixtures.serialized()
        #expect(await strict.verify(token, requestor: nil, resource: nil, now: Fixtures.issue.addingTimeInterval(420)).status == .expired)
        #expect(await strict.verify(token, requestor: nil, resource: nil, now: Fixtures.issue.addingTimeInterval(-0.001)).status == .expired)
        let generous = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), clockSkew: .seconds(86_400))
        #expect(generous.clockSkew == MediaTokenVerifier.maximumClockSkew)
        #expect(await generous.verify(token, requestor: nil, resource: nil, now: Fixtures.issue.addingTimeInterval(420 + 601)).status == .expired)
        let negative = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), clockSkew: .seconds(-5))
        #expect(negative.clockSkew == .zero)
    }

    @Test func nonFiniteNowDoesNotCrash() async {
        let token = Fixtures.serialized()
        #expect(await verifier.verify(token, requestor: nil, resource: nil, now: Date(timeIntervalSince1970: .infinity)).status == .expired)
        #expect(await verifier.verify(token, requestor: nil, resource: nil, now: Date(timeIntervalSince1970: .nan)).status == .expired)
        #expect(await verifier.verify(token, requestor: nil, resource: nil, now: .distantPast).status == .expired)
    }

    @Test func checkOrderSignatureBeforeRequestorBeforeLifetimeBeforeResource() async {
        let forged = Fixtures.serialized(Fixtures.token(requestor: "NBC"), key: Fixtures.strangerKey)
        #expect(await verifier.verify(forged, requestor: "REF", resource: "movies", now: .distantFuture).status == .invalidSignature)
        let foreign = Fixtures.serialized(Fixtures.token(requestor: "NBC"))
        #expect(await verifier.verify(foreign, requestor: "REF", resource: "movies", now: .distantFuture).status == .invalidRequestor)
        #expect(await verifier.verify(Fixtures.serialized(), requestor: "REF", resource: "movies", now: .distantFuture).status == .expired)
    }

    @Test func replayGuardRefusesSecondUseAndCheckNeverRecords() async {
        let guardStore = InMemoryReplayGuard()
        let oneTime = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), replayGuard: guardStore)
        let token = Fixtures.serialized()
        #expect(oneTime.check(token, requestor: "REF", resource: "news", now: inLifetime).status == .valid)
        #expect(await oneTime.verify(token, requestor: "REF", resource: "news", now: inLifetime).status == .valid)
        let again = await oneTime.verify(token, requestor: "REF", resource: "news", now: inLifetime.addingTimeInterval(1))
        #expect(again.status == .replayed)
        #expect(again.resourceID == "news")
        // The same token re-encoded with whitespace is the same use.
        #expect(await oneTime.verify(" " + token, requestor: "REF", resource: "news", now: inLifetime).status == .replayed)
        // A refused token is not recorded.
        let other = Fixtures.serialized(Fixtures.token(guid: "other"))
        #expect(await oneTime.verify(other, requestor: "REF", resource: "movies", now: inLifetime).status == .invalidResource)
        #expect(await oneTime.verify(other, requestor: "REF", resource: "news", now: inLifetime).status == .valid)
        #expect(await guardStore.count == 2)
    }

    struct FailingGuard: ReplayGuard {
        func claimFirstUse(of key: ReplayKey, until expiry: Date, now: Date) async throws -> Bool {
            throw ReplayGuardError(.unavailable, "database down")
        }
    }

    struct RecordingGuard: ReplayGuard {
        let seen = Recorder()
        func claimFirstUse(of key: ReplayKey, until expiry: Date, now: Date) async throws -> Bool {
            await seen.record(key, expiry)
            return true
        }
    }

    actor Recorder {
        var calls: [(ReplayKey, Date)] = []
        func record(_ key: ReplayKey, _ expiry: Date) { calls.append((key, expiry)) }
    }

    @Test func failingReplayStoreGivesUnknownError() async {
        let oneTime = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), replayGuard: FailingGuard())
        let result = await oneTime.verify(Fixtures.serialized(), requestor: "REF", resource: "news", now: inLifetime)
        #expect(result.status == .unknownError)
        #expect(!result.isValid)
    }

    @Test func replayKeyIsBodyDigestAndExpiryIncludesSkew() async throws {
        let recording = RecordingGuard()
        let oneTime = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), clockSkew: .seconds(30), replayGuard: recording)
        let token = Fixtures.serialized()
        _ = await oneTime.verify(token, requestor: nil, resource: nil, now: inLifetime)
        let calls = await recording.seen.calls
        try #require(calls.count == 1)
        #expect(calls[0].0.hex.count == 64)
        #expect(calls[0].0.hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(calls[0].1 == Fixtures.issue.addingTimeInterval(450))
    }

    @Test func statusIsAnOpenSetOfCodes() {
        let custom = VerificationStatus(rawValue: "quotaExceeded")
        #expect(custom != .valid)
        #expect(VerificationStatus.invalidResource.description == "invalidResource")
        let all: Set<VerificationStatus> = [
            .valid, .invalidFormat, .invalidSignature, .expired, .invalidResource,
            .invalidRequestor, .replayed, .unknownError,
        ]
        #expect(all.count == 8)
    }
}
