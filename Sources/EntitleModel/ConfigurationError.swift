import Foundation

/// A configuration problem found at start-up.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    package let description: String
    /// Creates an error with a message.
    package init(_ description: String) { self.description = description }
}
