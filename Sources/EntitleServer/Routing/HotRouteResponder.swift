import HTTPTypes
import Hummingbird

/// Answers the hot routes (the REST v2 calls a player makes on every play) by matching the path byte by byte, and
/// leaves every other request to the router's own responder.
///
/// Hummingbird's trie splits the path one `Character` at a time and compares components as Unicode strings: about
/// 30,000 instructions for a six-component decisions path, a tenth of the call. The byte-wise match takes a few hundred
/// and gives the same route, parameters and endpoint path (``HotRoute`` accepts only templates for which it does). A
/// path it does not take exactly as written (empty components, a trailing slash, non-ASCII bytes in a capture, a
/// capture equal to a shadowing constant, another method) goes to the trie.
package struct HotRouteResponder<Context: RequestContext>: HTTPResponder {
    let routes: [HotRoute<Context>]
    let fallback: RouterResponder<Context>

    package func respond(to request: Request, context: Context) async throws -> Response {
        guard let (route, parameters) = match(request.uri.path, method: request.method) else {
            return try await fallback.respond(to: request, context: context)
        }
        var context = context
        context.coreContext.parameters = parameters
        context.coreContext.endpointPath.value = route.endpointPath
        do {
            return try await route.responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // As the router's responder does.
            return try error.response(from: request, context: context)
        }
    }

    /// The hot route for this path and method, with its captured parameters.
    func match(_ path: String, method: HTTPRequest.Method) -> (HotRoute<Context>, Parameters)? {
        let utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/"), utf8.count > 1, utf8.last != UInt8(ascii: "/") else { return nil }
        // The components' byte ranges: at most eight, none empty.
        var bounds: [Range<String.Index>] = []
        bounds.reserveCapacity(8)
        var start = utf8.index(after: utf8.startIndex)
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                guard index > start, bounds.count < 8 else { return nil }
                bounds.append(start..<index)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        guard bounds.count < 8 else { return nil }
        bounds.append(start..<utf8.endIndex)
        for route in routes where route.method == method && route.segments.count == bounds.count {
            if let parameters = Self.parameters(of: route, path: path, bounds: bounds) { return (route, parameters) }
        }
        return nil
    }

    private static func parameters(of route: HotRoute<Context>, path: String, bounds: [Range<String.Index>]) -> Parameters? {
        var parameters = Parameters()
        for (segment, range) in zip(route.segments, bounds) {
            let component = path.utf8[range]
            switch segment {
            case .constant(let bytes):
                guard component.elementsEqual(bytes) else { return nil }
            case .capture(let name, let shadows):
                guard component.allSatisfy({ $0 < 0x80 }), !shadows.contains(where: { component.elementsEqual($0) }) else { return nil }
                parameters.append(key: name, value: path[range])
            }
        }
        return parameters
    }
}

/// The main server's responder builder: the router, with its hot routes answered before the trie.
package struct EntitleRouter<Context: RequestContext>: HTTPResponderBuilder {
    let router: Router<Context>
    package let hotRoutes: [HotRoute<Context>]

    /// Every route of the router.
    package var routes: [Router<Context>.RouteDescription] { router.routes }

    package func buildResponder() -> HotRouteResponder<Context> {
        HotRouteResponder(routes: hotRoutes, fallback: router.buildResponder())
    }
}
