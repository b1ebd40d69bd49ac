import Hummingbird
import NIOCore

/// The request context of the service: the core context plus the peer address, with a small upload limit.
public struct AppContext: RequestContext {
    /// Hummingbird's core storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer's IP address, when known.
    public let remoteIP: String?

    /// Creates the context for a request on a channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteIP = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies larger than this are refused with 413.
    public var maxUploadSize: Int { 256 * 1024 }
}
