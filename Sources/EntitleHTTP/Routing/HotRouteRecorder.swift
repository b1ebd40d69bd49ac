import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// Registers routes on a Hummingbird ``Router`` and keeps the responder of each, so that ``HotRouteResponder`` can
/// answer those paths without the router's trie walk. A route group made from the recorder (`recorder.group(…)`)
/// registers through it; the router gets every route exactly as before.
///
/// The kept responder is the one the router builds: the group's middleware, then the router's middleware as they are
/// when the route is added (what `Router.on` wraps around it). The match compares bytes, so the router must not be
/// made with `RouterOptions.caseInsensitive` (the service's is not).
package final class HotRouteRecorder<Context: RequestContext>: RouterMethods {
    package let router: Router<Context>
    private(set) var recorded: [(path: RouterPath, method: HTTPRequest.Method, responder: any HTTPResponder<Context>)] = []

    package init(router: Router<Context>) { self.router = router }

    @discardableResult package func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        router.on(path, method: method, responder: responder)
        recorded.append((path, method, router.middlewares.constructResponder(finalResponder: responder)))
        return self
    }

    /// Adds router-wide middleware (as `Router.add(middleware:)`: it applies to routes added after it).
    @discardableResult package func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// The recorded routes that can be matched byte by byte with the same outcome as the router's trie, given every
    /// route of the router (call once every route is added).
    package func hotRoutes() -> [(route: HotRoute, responder: any HTTPResponder<Context>)] {
        let all = router.routes.map(\.path)
        return recorded.compactMap { recorded in
            HotRoute(path: recorded.path, method: recorded.method, allPaths: all).map { ($0, recorded.responder) }
        }
    }
}
