import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Logging

/// Adobe's Proxy MVPD Web Service: `GET` and `POST /control/v3/mvpd-proxies/{proxy-mvpd-id}/mvpds`. A proxy's
/// web-service client (a DCR client of a software statement issued for the proxy, calling from an allowed address)
/// reads and replaces the proxy's proxied MVPDs as Adobe's XML (`proxied-mvpds` form field). Answers as Adobe
/// documents: 200 with the XML, 201 with no body, 400, 401, 403, 405 with a short text.
package struct ProxyMVPDController: Sendable {
    package let proxies: ProxyMVPDOperations

    /// The route, relative to the service's root.
    package static let path: RouterPath = "/control/v3/mvpd-proxies/:proxy/mvpds"

    /// Creates the value from each of its stored properties.
    package init(proxies: ProxyMVPDOperations) { self.proxies = proxies }

    /// Adds the routes.
    package func addRoutes(to router: some RouterMethods<AppContext>) {
        router.get(Self.path) { request, context in try await list(request, context: context) }
        router.post(Self.path) { request, context in try await push(request, context: context) }
        // Any other method: the router's 405 with `Allow: GET, POST`.
    }

    func list(_ request: Request, context: AppContext) async throws -> Response {
        let proxy = context.parameters.get("proxy") ?? ""
        do {
            _ = try await proxies.caller(
                authorization: request.headers[.authorization], proxy: proxy, clientAddress: context.remoteIP)
            var headers = HTTPFields()
            headers[.contentType] = "application/xml; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: try await proxies.listXML(proxy: proxy))))
        } catch let refusal as ProxyMVPDOperations.Refusal {
            return Self.text(refusal.status, refusal.message)
        }
    }

    func push(_ request: Request, context: AppContext) async throws -> Response {
        let proxy = context.parameters.get("proxy") ?? ""
        do {
            let client = try await proxies.caller(
                authorization: request.headers[.authorization], proxy: proxy, clientAddress: context.remoteIP)
            let form = FormURLEncoding.parse(try await FormBody.text(of: request, context: context, limit: 4 << 20))
            guard let xml = form["proxied-mvpds"], !xml.isEmpty else { return Self.text(400, "The form field proxied-mvpds is missing.") }
            try await proxies.push(proxy: proxy, xml: xml, client: client)
            return Response(status: .created)
        } catch let refusal as ProxyMVPDOperations.Refusal {
            context.logger.notice(
                "proxied MVPDs push refused", metadata: ["proxy": "\(proxy.logEscaped)", "status": "\(refusal.status)"])
            return Self.text(refusal.status, refusal.message)
        }
    }

    static func text(_ status: Int, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
