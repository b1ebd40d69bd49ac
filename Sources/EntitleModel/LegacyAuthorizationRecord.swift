/// A REST API v1 authorization (AuthZ token): one MVPD decision for a resource, valid until `notAfter`.
package struct LegacyAuthorizationRecord: Codable, Sendable, Equatable {
    /// Requestor.
    package var requestorId: String
    /// Client application (DCR client id, or `hmac:<public key>`).
    package var clientId: String
    /// Device.
    package var deviceId: String
    /// The resource as authorized.
    package var resource: String
    /// The MVPD that decided.
    package var mvpdId: String
    /// Decision time, ms.
    package var notBefore: Int64
    /// Expiry, ms.
    package var notAfter: Int64

    /// Creates the value from each of its stored properties.
    package init(requestorId: String, clientId: String, deviceId: String, resource: String, mvpdId: String, notBefore: Int64, notAfter: Int64) {
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.resource = resource
        self.mvpdId = mvpdId
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}
