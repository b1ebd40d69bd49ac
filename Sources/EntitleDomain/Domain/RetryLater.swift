import EntitleModel
import EntitleStorage

/// Too many attempts (for example wrong registration codes): the caller may try again after `seconds`.
package struct RetryLater: Error, Sendable {
    /// Seconds until the next attempt can succeed.
    package let seconds: Int

    /// Creates the value from each of its stored properties.
    package init(seconds: Int) {
        self.seconds = seconds
    }
}
