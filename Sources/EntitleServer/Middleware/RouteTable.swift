import Hummingbird
import Synchronization

/// The route templates of the router, so that a request for a known path with a wrong method can be answered 405.
final class RouteTable: Sendable {
    private let templates = Mutex<[[String]]>([])

    /// Records the router's routes (called once, after every route is added).
    func load(_ paths: [String]) {
        templates.withLock { $0 = paths.map { $0.split(separator: "/").map(String.init) } }
    }

    /// Whether some route has this path (with any method).
    func knowsPath(_ path: String) -> Bool {
        let segments = path.split(separator: "/").map(String.init)
        return templates.withLock { all in
            all.contains { template in
                template.count == segments.count
                    && zip(template, segments).allSatisfy { $0.hasPrefix(":") || $0.hasPrefix("{") || $0 == "*" || $0 == $1 }
            }
        }
    }
}
