import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// Answers the hot routes (the REST v2 calls a player makes on every play) by matching the path byte by byte, and
/// leaves every other request to the router's own responder.
///
/// Hummingbird's trie splits the path one `Character` at a time and compares components as Unicode strings; the hot
/// routes are matched on bytes instead (``HotRouteTable``), which gives the same route, parameters and endpoint path:
/// ``HotRoute`` accepts only templates for which it does (docs/scaling.md has the current figures).
package struct HotRouteResponder<Context: RequestContext>: HTTPResponder {
    package let table: HotRouteTable
    /// The responder of each route of the table, in its order.
    package let responders: [any HTTPResponder<Context>]
    package let fallback: RouterResponder<Context>

    package func respond(to request: Request, context: Context) async throws -> Response {
        guard let (index, parameters) = table.match(request.uri.path, method: request.method) else {
            return try await fallback.respond(to: request, context: context)
        }
        var context = context
        context.coreContext.parameters = parameters
        context.coreContext.endpointPath.value = table.routes[index].endpointPath
        do {
            return try await responders[index].respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // As the router's responder does.
            return try error.response(from: request, context: context)
        }
    }

    /// Creates the value from each of its stored properties.
    package init(table: HotRouteTable, responders: [any HTTPResponder<Context>], fallback: RouterResponder<Context>) {
        self.table = table
        self.responders = responders
        self.fallback = fallback
    }
}

/// The hot routes' templates and the byte-wise match. A path it does not take exactly as written (empty components,
/// a trailing slash, non-ASCII bytes in a capture, a capture equal to a shadowing constant, another method) is left
/// to the trie.
package struct HotRouteTable: Sendable {
    package let routes: [HotRoute]
    /// The indices of the routes, by number of path components (a request's path is compared only with templates of
    /// its length, without copying every route on the way).
    private let routesByLength: [[Int]]

    /// The most components a hot path has.
    package static let maximumComponents = 8

    package init(routes: [HotRoute]) {
        self.routes = routes
        var byLength = [[Int]](repeating: [], count: Self.maximumComponents + 1)
        for (index, route) in routes.enumerated() where route.segments.count <= Self.maximumComponents {
            byLength[route.segments.count].append(index)
        }
        routesByLength = byLength
    }

    /// The index of the route for this path and method, with its captured parameters.
    package func match(_ path: String, method: HTTPRequest.Method) -> (index: Int, parameters: Parameters)? {
        var contiguous = path
        return contiguous.withUTF8 { bytes in match(bytes, of: path, method: method) }
    }

    private func match(_ bytes: UnsafeBufferPointer<UInt8>, of path: String, method: HTTPRequest.Method) -> (index: Int, parameters: Parameters)? {
        let slash = UInt8(ascii: "/")
        guard bytes.count > 1, bytes[0] == slash, bytes[bytes.count - 1] != slash else { return nil }
        var components = 1
        for position in 1..<bytes.count where bytes[position] == slash {
            guard bytes[position - 1] != slash else { return nil }
            components += 1
        }
        guard components <= Self.maximumComponents else { return nil }
        routes: for index in routesByLength[components] where routes[index].method == method {
            var start = 1
            for segment in routes[index].segments {
                let end = Self.componentEnd(bytes, from: start)
                let component = UnsafeBufferPointer(rebasing: bytes[start..<end])
                switch segment {
                case .constant(let constant):
                    guard Self.equal(constant, component) else { continue routes }
                case .capture(_, let shadows):
                    guard component.allSatisfy({ $0 < 0x80 }), !shadows.contains(where: { Self.equal($0, component) }) else {
                        continue routes
                    }
                }
                start = end + 1
            }
            // The parameters are read only for the route that matched, not for every candidate tried before it.
            return (index, Self.parameters(of: routes[index], bytes, path: path))
        }
        return nil
    }

    /// Whether a template's constant and a path's component hold the same bytes (lengths first: most candidates differ
    /// there).
    private static func equal(_ constant: [UInt8], _ component: UnsafeBufferPointer<UInt8>) -> Bool {
        constant.count == component.count && constant.elementsEqual(component)
    }

    /// The index one past the component that starts at `start`.
    private static func componentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
        return end
    }

    /// The captured components of a path `route` matched, by name.
    private static func parameters(of route: HotRoute, _ bytes: UnsafeBufferPointer<UInt8>, path: String) -> Parameters {
        var parameters = Parameters()
        var start = 1
        let utf8 = path.utf8
        for segment in route.segments {
            let end = componentEnd(bytes, from: start)
            if case .capture(let name, _) = segment {
                parameters.append(key: name, value: path[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)])
            }
            start = end + 1
        }
        return parameters
    }
}

/// The main server's responder builder: the router, with its hot routes answered before the trie.
package struct EntitleRouter<Context: RequestContext>: HTTPResponderBuilder {
    package let router: Router<Context>
    package let hotRoutes: HotRouteTable
    package let hotResponders: [any HTTPResponder<Context>]

    package init(router: Router<Context>, hot: HotRouteRecorder<Context>) {
        let kept = hot.hotRoutes()
        self.router = router
        self.hotRoutes = HotRouteTable(routes: kept.map(\.route))
        self.hotResponders = kept.map(\.responder)
    }

    /// Every route of the router.
    package var routes: [Router<Context>.RouteDescription] { router.routes }

    package func buildResponder() -> HotRouteResponder<Context> {
        HotRouteResponder(table: hotRoutes, responders: hotResponders, fallback: router.buildResponder())
    }
}
