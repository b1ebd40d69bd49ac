import EntitleCore
import EntitleModel
import EntitleStorage

extension IntegrationOperations {
    /// The longest an MVPD's authorization answers may be kept: a week.
    package static let maxAuthorizationTTLSeconds: Int64 = 7 * 86_400

    /// Keeps `mvpd`'s authorization answers for `seconds` (0: never), for one requestor or, when nil, every requestor.
    package func setAuthorizationTTL(mvpd: String, requestor: String?, seconds: Int64, actor: String) async throws {
        if let requestor { try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd) } else { try OperatorReach.requireMVPD(mvpd) }
        guard (0...Self.maxAuthorizationTTLSeconds).contains(seconds) else {
            throw AdminError("invalid_seconds", "seconds must be between 0 and \(Self.maxAuthorizationTTLSeconds)")
        }
        guard try await catalog.mvpd(id: mvpd) != nil else {
            throw AdminError.unknown("MVPD", mvpd, hint: "the MVPDs are listed by `entitle admin mvpd list`")
        }
        let requestor = requestor ?? AuthorizationTTLRecord.anyRequestor
        let before = try await catalog.authorizationTTLs().first { $0.requestorId == requestor && $0.mvpdId == mvpd }
        try await catalog.setAuthorizationTTL(AuthorizationTTLRecord(requestorId: requestor, mvpdId: mvpd, ttlSeconds: seconds))
        try await changes.record(
            actor: actor, action: "authz-ttl.set", target: "\(requestor)/\(mvpd)", before: before.map { ["seconds": $0.ttlSeconds] },
            after: ["seconds": seconds])
    }

    /// The configured authorization TTLs.
    package func authorizationTTLs() async throws -> [AuthorizationTTLRecord] {
        try await catalog.authorizationTTLs().filter {
            $0.requestorId == AuthorizationTTLRecord.anyRequestor
                ? OperatorReach.maySee(mvpd: $0.mvpdId, integratedRequestors: []) : OperatorReach.maySee(requestor: $0.requestorId, mvpd: $0.mvpdId)
        }
    }
}
