import EntitleCore
import EntitleDomain
import EntitleModel
import Mustache

/// The escaping of every `{{value}}` in the service's templates, chosen by their first line
/// `{{% CONTENT_TYPE: EntitleHTML}}`: ``XMLEscape/html(_:)``, which works on Unicode scalars. Mustache's own HTML
/// escaping works on Swift `Character`s and lets a quote through when a combining mark follows it (one Character,
/// but a quote that ends the attribute to a browser).
package struct PageEscaping: MustacheContentType {
    /// The name the templates' pragma uses.
    package static let name = "EntitleHTML"

    /// Registers the content type with Mustache; templates that use it must be parsed after this ran.
    package static let registered: Void = MustacheContentTypes.register(PageEscaping(), named: name)

    package func escapeText(_ text: String) -> String { XMLEscape.html(text) }
}
