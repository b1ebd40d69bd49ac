import EntitleCore
import Foundation

/// TempPass: a pseudo-MVPD that authenticates a device without a login for a fixed time from its first use.
extension EntitleService {
    /// Starts (or continues) the TempPass of a device and stores its `temporary` profile.
    /// Throws `temporary_access_duration_limit_exceeded` once the pass has run out.
    @discardableResult
    func startTempPass(requestor: String, clientID: String, device: String, mvpd: MVPDRecord, sessionCode: String?) async throws -> ProfileRecord {
        let now = self.now
        let length = (mvpd.temppassMinutes ?? 10) * 60_000
        let deviceKey = Secrets.sha256Hex(requestor + "|" + device)
        let pass = try await repository.tempPass(requestor: requestor, mvpd: mvpd.id, deviceKey: deviceKey, now: now, lengthMs: length)
        guard pass.expiresAt > now else {
            metrics.recordAuthentication(mvpd: mvpd.id, outcome: "temppass_expired")
            throw APIError(.temporaryAccessDurationLimitExceeded)
        }
        let userID = "temppass_" + String(deviceKey.prefix(40))
        let profile = ProfileRecord(
            requestorId: requestor, clientId: clientID, deviceId: device, mvpdId: mvpd.id, type: "temporary", issuer: "Entitle",
            notBefore: pass.startedAt, notAfter: pass.expiresAt,
            attributes: JSONText.encode(["userID": [userID], "expiration_date": [String(pass.expiresAt)]]),
            nameId: userID, sessionIndex: nil, sessionCode: sessionCode, userId: userID)
        try await repository.upsertProfile(profile)
        metrics.recordAuthentication(mvpd: mvpd.id, outcome: "temppass")
        return profile
    }
}
