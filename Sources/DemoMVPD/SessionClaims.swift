import Foundation

/// What the session cookie of one demo MVPD says: who logged in, when, and until when.
struct SessionClaims: Codable, Sendable, Equatable {
    /// The MVPD id the session belongs to.
    var mvpd: String
    /// The subscriber's opaque user id.
    var userID: String
    /// The SAML SessionIndex of the session.
    var sessionIndex: String
    /// Issue time, seconds since 1970.
    var issuedAt: Int64
    /// Expiry time, seconds since 1970.
    var expiresAt: Int64

    /// The expiry as a date.
    var expiryDate: Date { Date(timeIntervalSince1970: TimeInterval(expiresAt)) }
}
