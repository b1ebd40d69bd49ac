import EntitleCore
import Foundation
import Hummingbird

extension DemoMVPD {
    /// Registers every route under `group` (the caller creates the group at path "demo-mvpd"):
    /// `GET {mvpd}/saml/metadata`, `GET {mvpd}/logo.svg`, `GET|POST {mvpd}/saml/sso`, `POST {mvpd}/saml/login`,
    /// `GET {mvpd}/saml/slo`, `GET {mvpd}/login`, `GET {mvpd}/account`, `POST {mvpd}/logout`, `POST {mvpd}/authorize`, `POST {mvpd}/platform/sso`.
    package func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get(":mvpd/saml/metadata") { _, context in
            self.metadataResponse(providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/logo.svg") { _, context in
            self.logoResponse(providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/saml/sso") { request, context in
            await self.singleSignOn(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/saml/sso") { request, context in
            await self.singleSignOnPost(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/saml/login") { request, context in
            await self.login(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/saml/slo") { request, context in
            await self.singleLogout(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/login") { request, context in
            self.accountLoginPage(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/account") { request, context in
            self.account(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/logout") { request, context in
            self.accountLogout(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/authorize") { request, context in
            self.authorizationRequests.increment()
            return await self.authorize(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/xacml") { request, context in
            self.authorizationRequests.increment()
            return await self.authorizeXACML(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/xacml/soap") { request, context in
            self.authorizationRequests.increment()
            return await self.authorizeSOAP(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/rest/authz") { request, context in
            self.authorizationRequests.increment()
            return await self.authorizeREST(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/platform/sso") { request, context in
            await self.platformSingleSignOn(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        addOAuth2Routes(to: group)
    }

    func metadataResponse(providerID: String) -> Response {
        guard let metadata = metadata(for: providerID) else { return notFoundPage() }
        return Response(
            status: .ok, headers: [.contentType: "application/samlmetadata+xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: metadata.xml())))
    }

    func logoResponse(providerID: String) -> Response {
        guard let provider = Self.provider(id: providerID) else { return notFoundPage() }
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "public, max-age=86400",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: provider.logoSVG)))
    }

    // MARK: response helpers

    /// An HTML page that is never cached.
    func htmlResponse(_ html: String, status: HTTPResponse.Status = .ok, cookies: [Cookie] = []) -> Response {
        var response = Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// A 303/302 redirect.
    func redirect(to location: String, status: HTTPResponse.Status = .seeOther, cookies: [Cookie] = []) -> Response {
        var response = Response(status: status, headers: [.location: location, .cacheControl: "no-store"])
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// An error page with a clear message.
    func errorPage(_ provider: DemoProvider?, status: HTTPResponse.Status, heading: String, message: String) -> Response {
        htmlResponse(pages.error(provider: provider, heading: heading, message: message), status: status)
    }

    func notFoundPage() -> Response {
        errorPage(nil, status: .notFound, heading: "Not found", message: "There is no such demo MVPD page.")
    }

    /// A JSON response.
    func jsonResponse(
        _ value: some Encodable, status: HTTPResponse.Status = .ok,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        headers.append(contentsOf: extraHeaders)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The query items of a request (percent-decoded; the last occurrence of a name wins).
    func queryItems(_ request: Request) -> [String: String] {
        var items: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { items[String(key)] = String(value) }
        return items
    }

    /// The fields of an `application/x-www-form-urlencoded` body (`+` is a space; the last occurrence wins);
    /// nil when the body is larger than `limit` bytes.
    func formFields(_ request: Request, limit: Int = 256 * 1024) async -> [String: String]? {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: limit) else { return nil }
        return FormURLEncoding.parse(String(buffer: buffer))
    }
}
