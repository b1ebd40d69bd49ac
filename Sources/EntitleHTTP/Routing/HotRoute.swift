import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// The template of one route answered without the router's trie: its path as bytes and its method. Not generic over
/// the request context, so that matching runs as specialized code (a generic type's fields are reached through its
/// runtime metadata, which cost more than the match itself).
///
/// The trie walks a path one component at a time and takes, at each level, the first child that matches, with no
/// backtracking. A byte-wise match gives the same route only where no other route can take a component first, so a
/// template is accepted only when, at every level its prefix shares with another route:
/// - where it has a constant, the other route has a constant too (a capture or wildcard there could take it);
/// - where it has a capture, the other route has a constant (which then shadows it: a request whose component
///   equals that constant is left to the trie) or the very same capture.
/// Templates with wildcards or partial captures are never accepted.
package struct HotRoute: Sendable {
    package enum Segment: Sendable, Equatable {
        case constant([UInt8])
        /// A `{name}` capture, and the constants of other routes that the trie would try at this level.
        case capture(name: Substring, shadowedBy: [[UInt8]])
    }

    package let segments: [Segment]
    package let method: HTTPRequest.Method
    /// The template as the router reports it (`/api/v2/{sp}/configuration`): the request's endpoint path.
    package let endpointPath: String

    /// Nil when the template cannot be matched byte by byte with the trie's outcome (see the type's comment).
    package init?(path: RouterPath, method: HTTPRequest.Method, allPaths: [RouterPath]) {
        let elements = path.components
        var segments: [Segment] = []
        for (level, element) in elements.enumerated() {
            // The other routes that reach this level through the same trie nodes.
            let siblings = allPaths.filter { other in
                other.components.count > level && other.components[level] != element
                    && Array(other.components.prefix(level)) == Array(elements.prefix(level))
            }.map { $0.components[level] }
            if let constant = Self.constant(element) {
                guard siblings.allSatisfy({ Self.constant($0) != nil }) else { return nil }
                segments.append(.constant(Array(constant.utf8)))
            } else if let name = Self.captureName(element) {
                var shadows: [[UInt8]] = []
                for sibling in siblings {
                    guard let constant = Self.constant(sibling) else { return nil }
                    if !shadows.contains(Array(constant.utf8)) { shadows.append(Array(constant.utf8)) }
                }
                segments.append(.capture(name: name, shadowedBy: shadows))
            } else {
                return nil
            }
        }
        self.segments = segments
        self.method = method
        self.endpointPath = path.description
    }

    /// The text of a constant component (nil for captures and wildcards).
    private static func constant(_ element: RouterPath.Element) -> String? {
        let text = element.description
        return element == text ? text : nil
    }

    /// The name of a whole-component capture (`{name}`), nil for anything else. A partial capture (`{name}.json`)
    /// does not match every text, a whole one does.
    private static func captureName(_ element: RouterPath.Element) -> Substring? {
        let text = element.description
        guard text.count > 2, text.hasPrefix("{"), text.hasSuffix("}"), element ~= "\u{1}" else { return nil }
        let name = text.dropFirst().dropLast()
        return name.contains("{") || name.contains("}") ? nil : Substring(String(name))
    }
}
