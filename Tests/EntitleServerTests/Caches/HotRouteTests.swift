import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Hummingbird
import HummingbirdTesting
import Testing

/// The hot routes (``HotRouteResponder``) answer every request exactly as the router's trie would: same route, same
/// parameters, same endpoint path, and the trie's answer for whatever they leave to it.
@Suite struct HotRouteTests {
    /// A router in the service's shape: the REST v2 group through the recorder, the authenticate group and a
    /// catch-all beside it. Every handler answers with its endpoint path and parameters.
    static func makeRouter() -> EntitleRouter<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let hot = HotRouteRecorder(router: router)
        router.get("/healthz", use: echo)
        router.get("/api/v2/authenticate/:code", use: echo)
        router.get("/api/v2/authenticate/:code/done", use: echo)
        let api = hot.group("/api/v2/:sp")
        api.get("configuration", use: echo)
        api.get("profiles", use: echo)
        api.get("profiles/:mvpd", use: echo)
        api.get("profiles/code/:code", use: echo)
        api.post("decisions/preauthorize/:mvpd", use: echo)
        api.post("decisions/authorize/:mvpd", use: echo)
        router.get("/static/**", use: echo)
        return EntitleRouter(router: router, hot: hot)
    }

    @Sendable static func echo(_ request: Request, _ context: BasicRequestContext) -> String {
        let parameters = context.parameters.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
        return "\(context.endpointPath ?? "-") [\(parameters)]"
    }

    static let paths = [
        "/api/v2/REF/configuration", "/api/v2/REF/profiles", "/api/v2/REF/profiles/DemoCable", "/api/v2/REF/profiles/code",
        "/api/v2/REF/profiles/code/ABC", "/api/v2/REF/decisions/preauthorize/DemoCable", "/api/v2/REF/decisions/authorize/M-1",
        "/api/v2/authenticate/configuration", "/api/v2/authenticate/profiles", "/api/v2/authenticate/ABC", "/api/v2/authenticate/ABC/done",
        "/api/v2/REF/configuration/", "/api/v2/REF//configuration", "//api/v2/REF/configuration", "/api/v2/REF/configuration?x=1",
        "/api/v2/caf%C3%A9/configuration", "/api/v2/café/configuration", "/API/v2/REF/configuration", "/api/v2/REF/Configuration",
        "/api/v2/REF/decisions/preauthorize", "/api/v2/REF/decisions/preauthorize/A/B", "/api/v2/REF/decisions", "/api/v2",
        "/", "/healthz", "/static/a/b", "/api/v2/REF/profiles/%63ode", "/api/v2/REF/a/b/c/d/e/f/g/h/i",
    ]

    @Test func everyPathIsAnsweredAsTheTrieAnswersIt() async throws {
        for method in [HTTPRequest.Method.get, .post, .delete] {
            try await Application(router: Self.makeRouter()).test(.router) { hot in
                try await Application(router: Self.makeRouter().router).test(.router) { trie in
                    for path in Self.paths {
                        let viaHot = try await hot.execute(uri: path, method: method)
                        let viaTrie = try await trie.execute(uri: path, method: method)
                        #expect(viaHot.status == viaTrie.status, "\(method) \(path)")
                        #expect(String(buffer: viaHot.body) == String(buffer: viaTrie.body), "\(method) \(path)")
                    }
                }
            }
        }
    }

    @Test func theCanonicalPathsTakeTheHotRoute() throws {
        let table = Self.makeRouter().hotRoutes
        let taken: [(String, HTTPRequest.Method, String, [String: String])] = [
            ("/api/v2/REF/configuration", .get, "/api/v2/{sp}/configuration", ["sp": "REF"]),
            ("/api/v2/REF/profiles/DemoCable", .get, "/api/v2/{sp}/profiles/{mvpd}", ["sp": "REF", "mvpd": "DemoCable"]),
            (
                "/api/v2/REF/decisions/preauthorize/DemoCable", .post, "/api/v2/{sp}/decisions/preauthorize/{mvpd}",
                ["sp": "REF", "mvpd": "DemoCable"]
            ),
        ]
        for (path, method, endpoint, parameters) in taken {
            let (index, found) = try #require(table.match(path, method: method), "\(path)")
            #expect(table.routes[index].endpointPath == endpoint)
            #expect(Dictionary(uniqueKeysWithValues: found.map { (String($0.key), String($0.value)) }) == parameters)
        }
        // Left to the trie: a shadowing constant in a capture, a template with a capture beside its constant
        // (`profiles/{mvpd}` beside `profiles/code/{code}`), another method, non-canonical or non-ASCII paths.
        for (path, method) in [
            ("/api/v2/REF/profiles/code/ABC", HTTPRequest.Method.get),
            ("/api/v2/authenticate/configuration", .get), ("/api/v2/REF/profiles/code", .get),
            ("/api/v2/REF/configuration", .post), ("/api/v2/REF/configuration/", .get), ("/api/v2//REF/configuration", .get),
            ("/api/v2/café/configuration", .get), ("/healthz", .get),
        ] {
            #expect(table.match(path, method: method) == nil, "\(method) \(path)")
        }
    }

    /// The responder sends a matched path to its hot route's responder, with the parameters the match read, and
    /// everything else to the trie: with hot responders that answer differently from the router's, the difference shows.
    @Test func matchedPathsGoToTheHotResponderAndTheRestToTheTrie() async throws {
        let built = Self.makeRouter()
        let marked = HotRouteResponder(
            table: built.hotRoutes,
            responders: built.hotRoutes.routes.map { route in
                CallbackResponder<BasicRequestContext> { _, context in
                    let parameters = context.parameters.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
                    return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "hot \(route.endpointPath) [\(parameters)]")))
                }
            },
            fallback: built.router.buildResponder())
        try await Application(responder: marked).test(.router) { client in
            let hot = try await client.execute(uri: "/api/v2/REF/decisions/preauthorize/DemoCable", method: .post)
            #expect(String(buffer: hot.body) == "hot /api/v2/{sp}/decisions/preauthorize/{mvpd} [mvpd=DemoCable,sp=REF]")
            let shadowed = try await client.execute(uri: "/api/v2/REF/profiles/code", method: .get)
            // `code` shadows `{mvpd}`: the trie takes the constant, which has no route of its own here.
            #expect(shadowed.status == .notFound)
            let other = try await client.execute(uri: "/healthz", method: .get)
            #expect(String(buffer: other.body) == "/healthz []")
        }
    }

    /// A template is kept only where no other route could take one of its components first.
    @Test func templatesAnotherRouteCouldOvertakeAreLeftToTheTrie() {
        func kept(_ hotPath: RouterPath, beside others: [RouterPath]) -> Bool {
            let router = Router(context: BasicRequestContext.self)
            let hot = HotRouteRecorder(router: router)
            for other in others { router.get(other, use: Self.echo) }
            hot.get(hotPath, use: Self.echo)
            return !hot.hotRoutes().isEmpty
        }
        #expect(kept("/a/:x/b", beside: ["/a/k/c", "/a/:x/c", "/z/:y"]))
        #expect(!kept("/a/:x/b", beside: ["/a/:y/c"]), "another capture at the same level")
        #expect(!kept("/a/k/b", beside: ["/a/:y/b"]), "a capture beside a constant")
        #expect(!kept("/a/:x/b", beside: ["/a/*/c"]), "a wildcard beside a capture")
        #expect(!kept("/a/:x/b", beside: ["/a/**"]), "a recursive wildcard")
        #expect(!kept("/a/{x}.json", beside: []), "a partial capture")
        #expect(!kept("/a/*", beside: []), "a wildcard")
    }

    /// The service's own router answers the REST v2 calls of a play on hot routes.
    @Test func theServicesPlayCallsAreHot() async throws {
        try await RouterService.run { service in
            let endpoints = Set(service.host.buildRouter().hotRoutes.routes.map { "\($0.method.rawValue) \($0.endpointPath)" })
            for call in [
                "GET /api/v2/{sp}/configuration", "GET /api/v2/{sp}/profiles", "GET /api/v2/{sp}/profiles/{mvpd}",
                "POST /api/v2/{sp}/decisions/preauthorize/{mvpd}", "POST /api/v2/{sp}/decisions/authorize/{mvpd}",
            ] {
                #expect(endpoints.contains(call), "\(call) in \(endpoints.sorted())")
            }
        }
    }
}
