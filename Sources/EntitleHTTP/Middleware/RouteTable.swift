import EntitleDomain
import EntitleModel
import Hummingbird
import Synchronization

/// The route templates of the router, so that a request for a known path with a wrong method can be answered 405.
package final class RouteTable: Sendable {
    private let templates = Mutex<[(segments: [String], method: String)]>([])

    /// Records the router's routes, path and method (called once, after every route is added).
    package func load(_ routes: [(path: String, method: String)]) {
        templates.withLock { $0 = routes.map { ($0.path.split(separator: "/").map(String.init), $0.method) } }
    }

    /// Whether some route has this path (with any method).
    package func knowsPath(_ path: String) -> Bool { !methods(forPath: path).isEmpty }

    /// The methods the routes matching this path accept, sorted (the `Allow` header of a 405); with GET comes HEAD.
    package func methods(forPath path: String) -> [String] {
        let segments = path.split(separator: "/").map(String.init)
        var methods = Set(
            templates.withLock { all in
                all.filter { template in
                    template.segments.count == segments.count
                        && zip(template.segments, segments).allSatisfy { $0.hasPrefix(":") || $0.hasPrefix("{") || $0 == "*" || $0 == $1 }
                }.map(\.method)
            })
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }
}
