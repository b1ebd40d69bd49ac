/// Too many attempts (for example wrong registration codes): the caller may try again after `seconds`.
struct RetryLater: Error, Sendable {
    /// Seconds until the next attempt can succeed.
    let seconds: Int
}
