import EntitleCore
import Foundation
import Hummingbird

/// The admin API (`/admin/api`, JSON): sign-in and sessions of operator accounts, then requestors, MVPDs,
/// integrations, software statements, clients, operators and the changes log — the operations of `entitle admin`,
/// each change recorded with the operator's name. Documented in the OpenAPI document under the `admin` tag.
struct AdminAPIController {
    let service: EntitleService
    let accounts: OperatorAccounts

    /// Adds the sign-in route to `open` (no session) and every other route to `authenticated` (a session or token).
    func addRoutes(open: RouterGroup<AppContext>, authenticated: RouterGroup<AdminContext>) {
        open.post("session", use: signIn)
        authenticated.get("session") { _, context in Self.json(SessionView(context.operatorIdentity)) }
        authenticated.delete("session", use: signOut)
        addCatalogRoutes(to: authenticated)
        addApplicationRoutes(to: authenticated)
        addReportRoutes(to: authenticated)
    }

    struct Credentials: Decodable {
        var username: String
        var password: String
    }

    /// The signed-in operator as the API shows it.
    struct SessionView: Encodable {
        var username: String
        var role: String
        var csrfToken: String
        var token: String?

        init(_ identity: OperatorIdentity, token: String? = nil) {
            (username, role, csrfToken, self.token) = (identity.username, identity.role.rawValue, identity.csrfToken, token)
        }
    }

    func signIn(_ request: Request, context: AppContext) async throws -> Response {
        let credentials = try await Self.decode(Credentials.self, request, context: context)
        let (token, identity) = try await accounts.signIn(
            username: credentials.username, password: credentials.password, address: context.remoteIP)
        var response = Self.json(SessionView(identity, token: token), status: .created)
        let secure = AdminAuthMiddleware.isSecure(context, publicBaseURL: service.configuration.publicBaseURL)
        response.setCookie(AdminAuthMiddleware.sessionCookie(token, accounts: accounts, secure: secure))
        return response
    }

    func signOut(_ request: Request, context: AdminContext) async throws -> Response {
        try await accounts.signOut(context.operatorIdentity)
        var response = Response(status: .noContent)
        response.setCookie(AdminAuthMiddleware.signedOutCookie)
        return response
    }

    /// A JSON answer with sorted keys, never cached.
    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        JSONCoding.response(value, status: status)
    }

    /// The request's JSON body as `T`; a malformed body is a 400 `invalid_request` naming the problem.
    static func decode<T: Decodable, Context: RequestContext>(_ type: T.Type, _ request: Request, context: Context) async throws -> T {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: body)) } catch let error as DecodingError {
            throw AdminAPIError.make(400, "invalid_request", "The JSON body is not as documented: \(Self.describe(error))")
        } catch {
            throw AdminAPIError.make(400, "invalid_request", "The body is not JSON.")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing \(key.stringValue)"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "wrong type at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty ? "not JSON" : "bad value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        @unknown default: return "not readable"
        }
    }
}
