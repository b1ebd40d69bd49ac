import AsyncHTTPClient
import Crypto
import EntitleCore
import EntitleClients
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import NIOHTTP1

/// A REST API v1 client as the clients in the field write it (protocol notes §3, §10.3): parameters in the query
/// (POST: form), `format=json|xml`, and either a DCR bearer token or the legacy HMAC `Authorization` header,
/// which this client signs itself from §2.3 (an implementation independent of the service's).
package struct LegacyV1Client: Sendable {
    /// How the client proves which app it is.
    package enum Identity: Sendable {
        /// A DCR access token (of this client).
        case bearer(RESTClient)
        /// The legacy HMAC `Authorization` header with this key pair.
        case hmac(publicKey: String, privateKey: String)
        /// No credentials.
        case none
    }

    /// The service called.
    package let host: LocalService
    /// How the client proves which app it is.
    package var identity: Identity
    /// The device id sent as `deviceId`.
    package var deviceID: String
    /// The requestor id.
    package var requestor = "REF"
    /// `request_uri` style for HMAC: the full path or only its last part after `/api/v1` or `/reggie/v1/{requestor}`.
    package var shortRequestURI = true

    /// Creates a client of `host` for a device.
    package init(host: LocalService, identity: Identity, deviceID: String) {
        self.host = host
        self.identity = identity
        self.deviceID = deviceID
    }

    /// Sends a v1 call; `params` go to the query (GET/DELETE) or the form body (POST).
    package func call(
        _ method: HTTPMethod, _ path: String, _ params: [(String, String)] = [], format: String? = "json",
        headers: [(String, String)] = [], requestTime: Int64? = nil, nonce: String? = nil,
        signWith privateKey: String? = nil, requestURI: String? = nil
    ) async throws -> V1Answer {
        var fields = params
        if let format { fields.append(("format", format)) }
        var url = host.baseURL + path
        var request = HTTPClientRequest(url: url)
        if method == .POST {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(fields)))
        } else if !fields.isEmpty {
            url += "?" + FormURLEncoding.encode(fields)
            request = HTTPClientRequest(url: url)
        }
        request.method = method
        switch identity {
        case .bearer(let client): request.headers.add(name: "Authorization", value: "Bearer " + (client.accessToken ?? ""))
        case .hmac(let publicKey, let key):
            let uri = requestURI ?? (shortRequestURI ? Self.shortURI(path) : path)
            let time = requestTime ?? host.clock.nowMilliseconds()
            let text =
                "\(method.rawValue) requestor_id=\(requestor), nonce=\(nonce ?? UUID().uuidString), signature_method=HMAC-SHA1, request_time=\(time), request_uri=\(uri)"
            let code = HMAC<Insecure.SHA1>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data((privateKey ?? key).utf8)))
            request.headers.add(name: "Authorization", value: text + ", public_key=\(publicKey), signature=\(Data(code).base64EncodedString())")
        case .none: break
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        let response = try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return V1Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// `/regcode`, `/tokens/authn`, … as C-SLYESPN signs them.
    static func shortURI(_ path: String) -> String {
        if path.hasPrefix("/api/v1") { return String(path.dropFirst("/api/v1".count)) }
        if let range = path.range(of: "/regcode") { return String(path[range.lowerBound...]) }
        return path
    }

    /// A device call with `requestor` and `deviceId`.
    package func device(_ method: HTTPMethod, _ path: String, _ params: [(String, String)] = [], format: String? = "json") async throws -> V1Answer {
        try await call(method, path, [("requestor", requestor), ("deviceId", deviceID)] + params, format: format)
    }

    /// Creates a registration code.
    package func registrationCode() async throws -> String {
        let answer = try await call(.POST, "/reggie/v1/\(requestor)/regcode", [("deviceId", deviceID)])
        guard answer.status == 201, let json = answer.json, let code = json["code"] as? String else {
            throw BrowserError("regcode failed: \(answer.status) \(answer.text)")
        }
        return code
    }

    /// The second-screen login of `user` at `mvpd` for `code`, through `/api/v1/authenticate` and the DemoMVPD.
    package func login(code: String, mvpd: String = "DemoCable", user: String, redirect: String? = nil) async throws -> BrowserClient.Outcome {
        let url =
            host.baseURL + "/api/v1/authenticate?"
            + FormURLEncoding.encode([
                ("reg_code", code), ("requestor_id", requestor), ("domain_name", "127.0.0.1"), ("mso_id", mvpd), ("noflash", "true"),
                ("no_iframe", "true"), ("redirect_url", redirect ?? host.baseURL + "/authenticated"),
            ])
        return try await DemoSignIn.signIn(browser: host.browser(), authenticationURL: url, username: user, password: user + "-pass")
    }
}

/// An HTTP answer of a v1 call.
package struct V1Answer: Sendable {
    /// Status code.
    package let status: Int
    /// Headers.
    package let headers: HTTPHeaders
    /// Body bytes.
    package let body: Data
    /// The body as text.
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// Wraps an answer.
    package init(status: Int, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension V1Answer {
    /// The body as a JSON object.
    package var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    /// The text of the first `<name>` element.
    package func xml(_ name: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[start.upperBound..<end.lowerBound])
    }
    /// The Enhanced Error Code of a JSON error body.
    package var code: String? { json?["code"] as? String }
}

extension LocalService {
    /// A value of a Prometheus counter line holding every label in `labels` (0 when absent).
    package func counter(_ name: String, labels: [String]) async throws -> Double {
        let answer = try await httpClient.execute(HTTPClientRequest(url: baseURL + "/metrics"), timeout: AnswerPatience.timeAmount)
        let text = String(buffer: try await answer.body.collect(upTo: 4 * 1024 * 1024))
        for line in text.split(separator: "\n") where line.hasPrefix(name) && labels.allSatisfy({ line.contains($0) }) {
            return Double(line.split(separator: " ").last ?? "0") ?? 0
        }
        return 0
    }
}
