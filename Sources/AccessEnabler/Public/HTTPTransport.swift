import Foundation

/// An HTTP request as the SDK builds it.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, ….
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// An HTTP response.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// The SDK's only way to the network: one `send`. Throw for transport failures (no connection, timeout,
/// dropped connection); return every HTTP answer, whatever its status. Redirects must not be followed.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the answer.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
