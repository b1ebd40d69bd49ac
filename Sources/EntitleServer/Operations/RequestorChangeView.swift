/// A requestor's settings as the changes log shows them (the certificate by its presence: it is long).
package struct RequestorChangeView: Encodable, Sendable {
    var id: String
    var name: String
    var domains: [String]
    var maxResources: Int64
    var programmerCertificate: Bool
    var defaultProfileTTLSeconds: Int64?
    var defaultAuthorizationTTLSeconds: Int64?
    var defaultPreflightMaxResources: Int64?

    /// The view of a requestor.
    package init(_ r: RequestorRecord) {
        (id, name, domains, maxResources, programmerCertificate) = (r.id, r.name, r.domains, r.maxResources, r.metadataCertificatePem != nil)
        (defaultProfileTTLSeconds, defaultAuthorizationTTLSeconds, defaultPreflightMaxResources) =
            (r.defaultProfileTtlSeconds, r.defaultAuthzTtlSeconds, r.defaultPreflightMaxResources)
    }
}
