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
        return prefix(bytes)
    }

    /// The first 8 bytes of SHA-256 over `bytes`, as a signed 64-bit integer.
    static func prefix(_ bytes: [UInt8]) -> Int64 {
        SHA256.hash(data: bytes).withUnsafeBytes { raw in
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(raw[index]) }
            return Int64(bitPattern: value)
        }
    }
}

/// A visitor as the reports' `uniqueVisitors` counts it: the first 8 bytes of SHA-256 over the value the client sent
/// (`AP-Visitor-Identifier`, REST API v1's `ap_vi`: Adobe's Experience Cloud ID), as a signed 64-bit integer — the same
/// on every instance, never the value itself. Not a dimension: visitors are unbounded, so they are only counted.
package enum ReportVisitor {
    /// The longest value counted (a longer one is not an identifier; it is not counted).
    package static let maximumLength = 256

    /// The visitor of a request that sent `value`; nil when it sent none (or an empty or oversized one).
    package static func id(_ value: String?) -> Int64? {
        guard let value, !value.isEmpty, value.utf8.count <= maximumLength else { return nil }
        return ReportAccount.prefix(Array(value.utf8))
    }
}

/// The application profile a client sends (`AP-Application-Profile`), as the reports' `profile` dimension takes it
/// before its bound per requestor (``ReportLabels/appProfiles(limit:)``): empty when none was sent, `other` for a value
/// longer than ``maximumLength`` bytes or with a character outside `A-Z a-z 0-9 . _ - : /`, else the value.
package enum ReportAppProfile {
    /// The longest profile kept under its own name.
    package static let maximumLength = 64

    /// The profile of a request that sent `value`.
    package static func of(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "" }
        let bytes = value.utf8
        guard bytes.count <= maximumLength, bytes.allSatisfy(isAllowed) else { return "other" }
        return value
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "/"): true
        default: false
        }
    }
}

/// Keeps a dimension whose values come from the client bounded (`resource`, `profile`): per requestor, the first
/// ``limit`` distinct values of each hour are counted under their own name, any further one (and any name the dimension
/// refuses: longer than ``maximumLength`` bytes, or what its `name` function makes `other`) as `other`. A flood of
/// made-up values therefore adds at most ``limit`` names per requestor and hour to this instance's memory and to the
/// rows of a minute. The admitted names start afresh every hour (a new channel is named again within the hour). `other`
/// itself takes no place, so a value bounded once comes out the same when bounded again.
package final class ReportLabels: Sendable {
    /// Distinct values per requestor and hour.
    package let limit: Int
    /// The longest value kept.
    package let maximumLength: Int
    /// The dimension's name for a raw value.
    private let naming: @Sendable (String) -> String
    private let state = Mutex<(hour: Int64, admitted: [String: Set<String>])>((0, [:]))

    /// Creates the bound; `name` turns a raw value into the dimension's name for it.
    package init(limit: Int, maximumLength: Int, name: @escaping @Sendable (String) -> String = { $0 }) {
        (self.limit, self.maximumLength, naming) = (limit, maximumLength, name)
    }

    /// The `resource` dimension: 500 channels per requestor and hour, names up to 128 bytes (``resourceName(_:)``).
    package static func resources(limit: Int = 500) -> ReportLabels {
        ReportLabels(limit: limit, maximumLength: 128, name: { Self.resourceName($0) })
    }

    /// The `profile` dimension: 50 application profiles per requestor and hour, as ``ReportAppProfile`` takes them.
    package static func appProfiles(limit: Int = 50) -> ReportLabels {
        ReportLabels(limit: limit, maximumLength: ReportAppProfile.maximumLength, name: { ReportAppProfile.of($0) })
    }

    /// The value of `raw` for `requestor` at `now` (ms).
    package func value(requestor: String, _ raw: String, at now: Int64) -> String {
        let name = naming(raw)
        guard !name.isEmpty, name.utf8.count <= maximumLength else { return "other" }
        guard name != "other" else { return name }
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
    package static func resourceName(_ raw: String) -> String {
        guard raw.utf8.first == UInt8(ascii: "<") || raw.utf8.first == UInt8(ascii: " ") else { return raw }
        return (try? ProtectedResource(parsing: raw))?.channel ?? "other"
    }
}
