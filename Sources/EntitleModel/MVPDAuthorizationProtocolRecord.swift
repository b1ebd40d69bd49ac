import EntitleCore

/// An MVPD's authorization protocol (a row exists only when it is not the default `entitle-json`).
package struct MVPDAuthorizationProtocolRecord: Codable, Sendable, Equatable {
    /// MVPD id.
    package var mvpdId: String
    /// The protocol.
    package var authorizationProtocol: String

    /// Creates a record.
    package init(mvpdId: String, kind: MVPDAuthorizationProtocol) {
        self.mvpdId = mvpdId
        self.authorizationProtocol = kind.rawValue
    }
}
