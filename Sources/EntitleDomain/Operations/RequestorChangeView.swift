import EntitleModel
import EntitleStorage

/// A requestor's settings as the changes log shows them (the certificate by its presence: it is long).
package struct RequestorChangeView: Encodable, Sendable {
    package var id: String
    package var name: String
    package var domains: [String]
    package var maxResources: Int64
    package var programmerCertificate: Bool
    package var defaultProfileTTLSeconds: Int64?
    package var defaultAuthorizationTTLSeconds: Int64?
    package var defaultPreflightMaxResources: Int64?

    /// The view of a requestor.
    package init(_ r: RequestorRecord) {
        (id, name, domains, maxResources, programmerCertificate) = (r.id, r.name, r.domains, r.maxResources, r.metadataCertificatePem != nil)
        (defaultProfileTTLSeconds, defaultAuthorizationTTLSeconds, defaultPreflightMaxResources) =
            (r.defaultProfileTtlSeconds, r.defaultAuthzTtlSeconds, r.defaultPreflightMaxResources)
    }
}
