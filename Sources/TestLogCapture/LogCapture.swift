import Logging
import Synchronization

/// A log handler that keeps every line it is given (message and metadata, as a stream handler would print them).
package final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Every line logged so far.
    package var all: [String] { lines.withLock { $0 } }

    /// A logger writing to this capture.
    package func logger(label: String = "capture", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// A handler writing to this capture.
    package func handler() -> any LogHandler { Handler(capture: self) }

    /// Creates an empty capture.
    package init() {}

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(rendered)")
        }
    }
}
