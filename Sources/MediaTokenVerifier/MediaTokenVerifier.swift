import Crypto
import EntitleCore
import Foundation

/// Checks short media tokens before a video server serves a stream.
///
/// Create one verifier at start-up and share it; it is a value type and safe to use from any task.
/// ```swift
/// let verifier = MediaTokenVerifier(keys: try VerificationKeySet(contentsOfFile: "media-token.pem"))
/// let result = await verifier.verify(token, requestor: "REF", resource: "news", now: Date())
/// guard result.isValid else { return .forbidden(result.status) }
/// ```
/// Checks run in this order, the first failure decides: format, signature, requestor, lifetime, resource, replay.
public struct MediaTokenVerifier: Sendable {
    /// The largest accepted clock-skew tolerance; larger values are clamped to it.
    public static let maximumClockSkew: Duration = .seconds(600)
    /// The default clock-skew tolerance.
    public static let defaultClockSkew: Duration = .seconds(60)

    private let keys: any VerificationKeyProvider
    private let skewMilliseconds: Int64
    private let replayGuard: (any ReplayGuard)?
    private let maximumTokenLength: Int

    /// Creates a verifier.
    /// - Parameters:
    ///   - keys: the trusted keys: a ``VerificationKeySet`` or a refreshing ``RemoteKeySource``.
    ///   - clockSkew: tolerance applied to both ends of the lifetime, clamped to `0...maximumClockSkew`.
    ///   - replayGuard: when set, a token is accepted only once within its lifetime.
    ///   - maximumTokenLength: serialized tokens longer than this are `invalidFormat` without further work.
    public init(
        keys: some VerificationKeyProvider, clockSkew: Duration = MediaTokenVerifier.defaultClockSkew,
        replayGuard: (any ReplayGuard)? = nil,
        maximumTokenLength: Int = MediaTokenEnvelope.defaultMaximumLength
    ) {
        self.keys = keys
        let clamped = min(max(clockSkew, .zero), Self.maximumClockSkew)
        let parts = clamped.components
        self.skewMilliseconds = parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
        self.replayGuard = replayGuard
        self.maximumTokenLength = maximumTokenLength
    }

    /// The clock-skew tolerance in effect.
    public var clockSkew: Duration { .milliseconds(skewMilliseconds) }

    /// Verifies a serialized token (the whole Base64 `serializedToken` string).
    /// - Parameters:
    ///   - requestor: the requestor id the token must be issued to, or `nil` to skip this check.
    ///   - resource: the resource about to be served (plain id or MRSS), or `nil` to skip this check.
    ///   - now: the current time (inject a clock in tests).
    public func verify(_ token: String, requestor: String?, resource: String?, now: Date) async -> VerificationResult {
        let (result, envelope) = evaluate(token, requestor: requestor, resource: resource, now: now)
        guard result.isValid, let replayGuard, let envelope else { return result }
        let key = ReplayKey(digest: envelope.bodyDigest())
        let expiry = Date(timeIntervalSince1970: Double(envelope.token.expiryTime + skewMilliseconds) / 1000)
        do {
            guard try await replayGuard.claimFirstUse(of: key, until: expiry, now: now) else {
                return VerificationResult(
                    status: .replayed, detail: "token was already used", token: envelope.token,
                    signatureVerified: true)
            }
            return result
        } catch {
            return VerificationResult(
                status: .unknownError, detail: "replay store failed", token: envelope.token,
                signatureVerified: true)
        }
    }

    /// Every check except the replay guard, synchronously. Use ``verify(_:requestor:resource:now:)`` when a
    /// replay guard is configured: `check` never records a use.
    public func check(_ token: String, requestor: String?, resource: String?, now: Date) -> VerificationResult {
        evaluate(token, requestor: requestor, resource: resource, now: now).result
    }

    private func evaluate(_ serialized: String, requestor: String?, resource: String?, now: Date)
        -> (result: VerificationResult, envelope: MediaTokenEnvelope?)
    {
        let envelope: MediaTokenEnvelope
        do {
            envelope = try MediaTokenEnvelope(serialized: serialized, maximumLength: maximumTokenLength)
        } catch let error as MediaTokenFormatError {
            return (VerificationResult(status: .invalidFormat, detail: error.description, token: nil, signatureVerified: false), nil)
        } catch {
            return (VerificationResult(status: .unknownError, detail: "token could not be read", token: nil, signatureVerified: false), nil)
        }
        let token = envelope.token
        guard envelope.isSigned(byAnyOf: keys.currentKeys.allKeys) else {
            return (
                VerificationResult(
                    status: .invalidSignature, detail: "no trusted key verifies the signature", token: token,
                    signatureVerified: false), nil
            )
        }
        func refuse(_ status: VerificationStatus, _ detail: String) -> (VerificationResult, MediaTokenEnvelope?) {
            (VerificationResult(status: status, detail: detail, token: token, signatureVerified: true), nil)
        }
        if let requestor, token.requestorID != requestor {
            return refuse(.invalidRequestor, "token was issued to another requestor")
        }
        let seconds = now.timeIntervalSince1970
        let nowMilliseconds = seconds.isFinite ? Int64(min(max(seconds * 1000, -9e15), 9e15).rounded(.down)) : Int64.max
        if nowMilliseconds < token.issueTime - skewMilliseconds {
            return refuse(.expired, "token is issued in the future beyond the clock-skew tolerance")
        }
        if nowMilliseconds >= token.expiryTime + skewMilliseconds {
            return refuse(.expired, "token lifetime is over")
        }
        if let resource, !ResourceMatcher.matches(token: token.resourceID, request: resource) {
            return refuse(.invalidResource, "token was issued for another resource")
        }
        return (VerificationResult(status: .valid, detail: "token is valid", token: token, signatureVerified: true), envelope)
    }
}
