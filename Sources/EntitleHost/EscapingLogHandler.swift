import EntitleCore
import Logging

/// A log handler that escapes every message and metadata value (``LogEscaping``) before handing it to another handler,
/// so that no control character or terminal escape sequence from a request reaches the operator's log, whichever code
/// (the service, the DemoMVPD, Hummingbird) logged it. `entitle serve` logs through it.
package struct EscapingLogHandler: LogHandler {
    private var wrapped: any LogHandler
    /// The logger's own metadata, kept as set and escaped only when a line is written (setting it is per request).
    private var ownMetadata: Logger.Metadata = [:]

    /// Wraps `handler`.
    package init(_ handler: any LogHandler) { wrapped = handler }

    /// The logger's metadata (escaped when written).
    package var metadata: Logger.Metadata {
        get { ownMetadata }
        set { ownMetadata = newValue }
    }

    /// The wrapped handler's level.
    package var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    /// One metadata value.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { ownMetadata[key] }
        set { ownMetadata[key] = newValue }
    }

    /// Logs the escaped message and metadata (the logger's own, then the line's) through the wrapped handler.
    package func log(event: LogEvent) {
        var event = event
        event.message = "\(LogEscaping.escape(event.message.description, limit: .max))"
        var merged = ownMetadata
        if let metadata = event.metadata { merged.merge(metadata) { $1 } }
        event.metadata = merged.isEmpty ? nil : merged.mapValues(Self.escape)
        wrapped.log(event: event)
    }

    /// A metadata value with every string in it escaped.
    static func escape(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(LogEscaping.escape(text, limit: .max))
        case .stringConvertible(let convertible): .string(LogEscaping.escape(convertible.description, limit: .max))
        case .array(let values): .array(values.map(escape))
        case .dictionary(let values): .dictionary(values.mapValues(escape))
        }
    }
}
