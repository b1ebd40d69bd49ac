import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

extension V1Request {
    /// The application profile the call sent (`AP-Application-Profile`), as the reports' `profile` takes it
    /// (``ReportAppProfile``; empty when none).
    package var reportAppProfile: String { ReportAppProfile.of(request.headers.combinedValue(.applicationProfile)) }

    /// The visitor the call named, as the reports' `uniqueVisitors` counts it (``ReportVisitor``, a hash): the
    /// `AP-Visitor-Identifier` header, else the `ap_vi` parameter that Adobe documents for REST API v1 and that its
    /// JavaScript SDK sends on adobe-services.
    package var reportVisitor: Int64? { ReportVisitor.id(request.headers.combinedValue(.visitorIdentifier) ?? self["ap_vi"]) }
}
