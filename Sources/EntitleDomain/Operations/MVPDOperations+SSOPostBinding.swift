import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird
import SAML

/// The login form of `authenticate/saml` (protocol notes §4.3): where the MVPD's metadata offers an HTTP-POST
/// SingleSignOnService, the browser gets Adobe's kind of page, a form that posts `SAMLRequest` (signed with an enveloped
/// XML signature) and `RelayState` to the MVPD by itself; otherwise the HTTP-Redirect binding is used.
extension MVPDOperations {
    /// Records the HTTP-POST SingleSignOnService of imported IdP metadata (forgets it when there is none).
    package func recordSSOPostBinding(mvpd: String, metadataXML: String) async throws {
        try await mvpdOptions.setSSOPostLocation(mvpd: mvpd, location: Self.ssoPostLocation(inMetadata: metadataXML))
    }

    /// The `Location` of the first `SingleSignOnService` element with the HTTP-POST binding.
    package static func ssoPostLocation(inMetadata xml: String) -> String? {
        var rest = xml[...]
        while let start = rest.range(of: "SingleSignOnService") {
            guard let open = rest[..<start.lowerBound].lastIndex(of: "<"), let close = rest[start.upperBound...].firstIndex(of: ">") else {
                return nil
            }
            let tag = String(rest[open...close])
            rest = rest[rest.index(after: close)...]
            guard !tag.hasPrefix("</"), tag.contains("\"\(SAMLBinding.httpPOST)\""), let location = attribute("Location", in: tag) else { continue }
            let unescaped = XMLEscape.unescape(location)
            guard let url = URL(string: unescaped), url.scheme == "https" || url.scheme == "http" else { continue }
            return unescaped
        }
        return nil
    }

    /// The value of attribute `name` in one start tag, in either kind of quotes.
    package static func attribute(_ name: String, in tag: String) -> String? {
        for quote in ["\"", "'"] {
            if let start = tag.range(of: " \(name)=\(quote)") ?? tag.range(of: "\n\(name)=\(quote)"),
                let end = tag[start.upperBound...].firstIndex(of: Character(quote))
            {
                return String(tag[start.upperBound..<end])
            }
        }
        return nil
    }
}
