import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// TempPass: a pseudo-MVPD that authenticates a device without a login for a fixed time from its first use.
/// With a resource limit it is a Promotional TempPass: the pass belongs to an identity (`AP-TempPass-Identity`, Base64 JSON
/// such as `{"email": "<sha-256 of the address>"}`) or a device, and plays a limited number of distinct resources.
package struct TempPassService: Sendable, ClockReading {
    /// The TempPass windows and promotional passes.
    package let passes: any TempPassStoring
    /// Where a TempPass stores its profile.
    package let profiles: any ProfileStoring
    /// The integrations of a reset.
    package let catalog: any CatalogReading
    package let metrics: ServiceMetrics
    package let clock: any ServiceClock

    /// Starts (or continues) the TempPass of a device and stores its `temporary` profile.
    /// Throws `temporary_access_duration_limit_exceeded` once the pass has run out.
    @discardableResult
    package func startTempPass(
        requestor: String, clientID: String, device: String, mvpd: MVPDRecord, sessionCode: String?,
        identityHeader: String? = nil
    ) async throws -> ProfileRecord {
        let now = self.now
        let length = (mvpd.temppassMinutes ?? 10) * 60_000
        let deviceKey = Secrets.sha256Hex(requestor + "|" + device)
        let window: (start: Int64, end: Int64, userKey: String)
        if let limit = mvpd.temppassResourceLimit, limit > 0 {
            let identityKey = try Self.tempPassIdentityKey(identityHeader, requestor: requestor, mvpd: mvpd.id)
            let pass = try await passes.promoPass(
                requestor: requestor, mvpd: mvpd.id, identityKey: identityKey, deviceKey: deviceKey,
                now: now, lengthMs: length)
            window = (pass.startedAt, pass.expiresAt, pass.passKey)
        } else {
            let pass = try await passes.tempPass(requestor: requestor, mvpd: mvpd.id, deviceKey: deviceKey, now: now, lengthMs: length)
            window = (pass.startedAt, pass.expiresAt, deviceKey)
        }
        guard window.end > now else {
            metrics.recordAuthentication(mvpd: mvpd.id, outcome: "temppass_expired")
            throw EnhancedError.temporaryAccessDurationLimitExceeded
        }
        let userID = "temppass_" + String(window.userKey.prefix(40))
        let profile = ProfileRecord(
            requestorId: requestor, clientId: clientID, deviceId: device, mvpdId: mvpd.id, type: .temporary, issuer: "Entitle",
            notBefore: window.start, notAfter: window.end,
            attributes: JSONText.encode(["userID": [userID], "expiration_date": [String(window.end)]]),
            nameId: window.userKey, sessionIndex: nil, sessionCode: sessionCode, userId: userID)
        try await profiles.upsertProfile(profile)
        metrics.recordAuthentication(mvpd: mvpd.id, outcome: "temppass")
        return profile
    }

    /// The key of a Promotional TempPass identity: SHA-256 over the requestor, the MVPD and the identity's canonical form
    /// (sorted keys; a string value as it is, any other JSON value — number, boolean, array, object — as its JSON
    /// text with sorted keys, as the SDK forwards `withData:` values of every type).
    /// Throws `invalid_header_identity_for_temporary_access` when missing or not Base64 of a non-empty JSON object.
    package static func tempPassIdentityKey(_ header: String?, requestor: String, mvpd: String) throws -> String {
        guard let header, header.count <= 4096, let data = Data(base64Lenient: header),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], !object.isEmpty,
            let canonical = try? object.keys.sorted().map({ "\($0)=\(try canonicalValue(object[$0] as Any))" }).joined(separator: "&")
        else {
            throw EnhancedError.invalidTempPassIdentity.with(
                details: "Send AP-TempPass-Identity as Base64 of a JSON object such as {\"email\": \"<hash>\"}.")
        }
        return Secrets.sha256Hex([requestor, mvpd, canonical].joined(separator: "|"))
    }

    /// A string as it is (the keys of string identities stay what they were); another JSON value as sorted JSON text.
    package static func canonicalValue(_ value: Any) throws -> String {
        if let text = value as? String { return text }
        let json = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        return "json:" + String(decoding: json, as: UTF8.self)
    }

    /// User metadata of a Promotional TempPass profile: `remaining_resources`, `used_assets`, `expiration_date`.
    package func promoMetadata(profile: ProfileRecord, mvpd: MVPDRecord) async throws -> [String: [String]] {
        guard let limit = mvpd.temppassResourceLimit, limit > 0 else { return [:] }
        let used = try await passes.promoResources(passKey: profile.nameId)
        return [
            "remaining_resources": [String(max(0, limit - Int64(used.count)))], "used_assets": [String(used.count)],
            "expiration_date": [String(profile.notAfter)],
        ]
    }

    /// Resets TempPasses of an MVPD (admin): of one device (its raw id), of one identity (the JSON the app sends in
    /// `AP-TempPass-Identity`, plain or Base64), or all of them. Returns how many passes were removed.
    package func resetTempPass(requestor: String, mvpd mvpdID: String, device: String?, identity: String?) async throws -> Int {
        guard let mvpd = try await catalog.integratedMVPD(requestor: requestor, mvpd: mvpdID), mvpd.isTempPass else {
            throw ConfigurationError("\(mvpdID) is not a TempPass MVPD of \(requestor).")
        }
        let deviceKey = device.map { Secrets.sha256Hex(requestor + "|" + $0) }
        var removed = 0
        if mvpd.temppassResourceLimit != nil {
            var identityKey: String?
            if let identity {
                let header = identity.trimmingCharacters(in: .whitespaces).hasPrefix("{") ? Data(identity.utf8).base64EncodedString() : identity
                identityKey = try Self.tempPassIdentityKey(header, requestor: requestor, mvpd: mvpdID)
            }
            removed = try await passes.resetPromoPasses(requestor: requestor, mvpd: mvpdID, deviceKey: deviceKey, identityKey: identityKey)
        } else {
            guard identity == nil else { throw ConfigurationError("\(mvpdID) is a plain TempPass: reset by device or all.") }
            removed = try await passes.resetTempPass(requestor: requestor, mvpd: mvpdID, deviceKey: deviceKey)
        }
        return removed
    }
}
