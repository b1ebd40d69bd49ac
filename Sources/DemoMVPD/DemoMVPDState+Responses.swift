import EntitleCore
import Foundation
import Hummingbird

/// The responses every role of the demo MVPD answers with, and the reading of query and form fields.
extension DemoMVPDState {
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
