import EntitleCore
import Logging

/// A log handler that escapes every message and metadata value (``LogEscaping``) before handing it to another handler,
/// so that no control character or terminal escape sequence from a request reaches the operator's log, whichever code
/// (the service, the DemoMVPD, Hummingbird) logged it. `entitle serve` logs through it.
package struct EscapingLogHandler: LogHandler {
    private var wrapped: any LogHandler

    /// Wraps `handler`.
    package init(_ handler: any LogHandler) { wrapped = handler }

    /// The wrapped handler's metadata.
    package var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue.mapValues(Self.escape) }
    }

    /// The wrapped handler's level.
    package var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    /// One metadata value.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue.map(Self.escape) }
    }

    /// Logs the escaped message and metadata through the wrapped handler.
    package func log(event: LogEvent) {
        var event = event
        event.message = "\(LogEscaping.escape(event.message.description, limit: .max))"
        event.metadata = event.metadata?.mapValues(Self.escape)
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
