import EntitleDomain
import EntitleModel
import Foundation

/// The OpenAPI 3.1 document of every served endpoint, kept in the repository as `Resources/openapi.json`.
package enum OpenAPIDocument {
    /// The document's JSON text.
    package static let json: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "{}" }
        return text
    }()
}
