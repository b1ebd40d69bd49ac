import Crypto
import EntitleCore
import EntitleModel
import Foundation
import Synchronization

/// The client family of a request, for the reports' `client` dimension.
package enum ReportClient {
    /// Entitle's own AccessEnabler SDK (REST v2 calls whose `User-Agent` starts with `Entitle-AccessEnabler/`).
    package static let sdk = "sdk"
    /// REST API v2 (any other REST v2 caller).
    package static let restV2 = "rest-v2"
    /// REST API v1 (`/api/v1`, `/reggie/v1`).
    package static let restV1 = "rest-v1"
    /// Adobe's SDK protocol (`/adobe-services`).
    package static let adobeServices = "adobe-services"
    /// Every family the reports know.
    package static let all = [sdk, restV2, restV1, adobeServices]

    /// The family of a REST v2 call that sent `userAgent`: `sdk` for Entitle's SDK, else `rest-v2`. Compares a prefix
    /// of bytes only (runs on every call).
    package static func ofRESTv2(userAgent: String?) -> String {
        guard let userAgent, userAgent.utf8.starts(with: "Entitle-AccessEnabler/".utf8) else { return restV2 }
        return sdk
    }
}

/// The reports' `sso` and `hba` values of a profile, and its account.
extension ProfileRecord {
    /// How the profile came about, as the `sso` dimension names it: `none` (a sign-in at the MVPD), `apple`,
    /// `platform`, `service-token`, `temppass` or `degraded`.
    package var reportSSO: String {
        switch type {
        case .appleSSO: "apple"
        case .platformSSO: "platform"
        case .serviceTokenSSO: "service-token"
        case .temporary: "temppass"
        case .degraded: "degraded"
        default: "none"
        }
    }

    /// `true` when the MVPD said the sign-in was home-based, else `false`. The stored metadata is decoded only when it
    /// names `hba_status` at all (a decision never decodes it otherwise).
    package var reportHBA: String {
        attributes.contains(Self.homeBasedAttribute) && isHomeBased ? "true" : "false"
    }

    /// The profile's MVPD user as the reports count it (``ReportAccount``).
    package var reportAccount: Int64 { ReportAccount.id(mvpd: mvpdId, userID: userId) }
}

/// An MVPD user as the reports' `uniqueAccounts` counts it: the first 8 bytes of SHA-256 over the MVPD id, a 0 byte
/// and the MVPD's user id, as a signed 64-bit integer. The same on every instance (so instances' sets unite), never the
/// user id itself. Two users share a value with probability n²/2⁶⁵ (n users: below 10⁻⁷ for a million).
package enum ReportAccount {
    /// The account of `userID` at `mvpd`.
    package static func id(mvpd: String, userID: String) -> Int64 {
        var bytes = Array(mvpd.utf8)
        bytes.append(0)
        bytes.append(contentsOf: userID.utf8)
        let digest = SHA256.hash(data: bytes)
        return digest.withUnsafeBytes { raw in
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(raw[index]) }
            return Int64(bitPattern: value)
        }
    }
}

/// Keeps the `resource` dimension bounded: per requestor, the first ``limit`` distinct resources of each hour are
/// counted under their own name, any further one (and any name longer than ``maximumLength``) as `other`. A flood of
/// made-up resource ids therefore adds at most ``limit`` names per requestor and hour to this instance's memory and to
/// the rows of a minute. The admitted names start afresh every hour (a new channel is named again within the hour).
package final class ResourceLabels: Sendable {
    /// Distinct resources per requestor and hour.
    package let limit: Int
    /// The longest resource name kept.
    package static let maximumLength = 128
    private let state = Mutex<(hour: Int64, admitted: [String: Set<String>])>((0, [:]))

    /// Creates the bound.
    package init(limit: Int = 500) { self.limit = limit }

    /// The `resource` value of `raw` (a plain id, or MRSS whose channel title names it) for `requestor` at `now` (ms).
    package func value(requestor: String, _ raw: String, at now: Int64) -> String {
        let name = Self.name(raw)
        guard !name.isEmpty, name.utf8.count <= Self.maximumLength else { return "other" }
        let hour = now / 3_600_000
        return state.withLock { state in
            if state.hour != hour { state = (hour, [:]) }
            if state.admitted[requestor]?.contains(name) == true { return name }
            guard state.admitted[requestor, default: []].count < limit else { return "other" }
            state.admitted[requestor, default: []].insert(name)
            return name
        }
    }

    /// The channel a resource names: the plain id, or the channel title of MRSS (parsed only when it starts with `<`).
    package static func name(_ raw: String) -> String {
        guard raw.utf8.first == UInt8(ascii: "<") || raw.utf8.first == UInt8(ascii: " ") else { return raw }
        return (try? ProtectedResource(parsing: raw))?.channel ?? "other"
    }
}
