import Foundation

/// Polling the profile by registration code (`GET /profiles/code/{code}`): every `interval` seconds (3–5 s), or
/// later when the service asks (`Retry-After`), until the profile appears, the code's `notAfter` passes, or the
/// polling is cancelled or superseded by a new code.
struct SecondScreenPollingStateMachine: Sendable {
    /// The default time between polls, seconds.
    static let defaultInterval: TimeInterval = 3
    /// Polls are never closer than this, nor (unless the service asks) further apart than `maximumInterval`.
    static let minimumInterval: TimeInterval = 3
    static let maximumInterval: TimeInterval = 5
    /// The code's lifetime when the session does not say.
    static let defaultLifetime: TimeInterval = 30 * 60

    enum State: Equatable, Sendable {
        case idle
        case polling(code: String, notAfter: Date, generation: Int)
    }

    enum PollResult: Equatable, Sendable {
        /// 404: the login is not done yet.
        case pending
        /// 429: wait `retryAfter` seconds.
        case throttled(retryAfter: Double)
        /// A network or 5xx failure that may pass.
        case transientFailure
        /// The profile exists (`mvpd`).
        case authenticated(mvpd: String)
        /// A failure that will not pass (for example the client was rejected).
        case failed(AccessEnablerError)
    }

    enum Action: Equatable, Sendable {
        case none
        /// Sleep `seconds`, then poll (tagged `generation`).
        case pollAfter(seconds: Double, generation: Int)
        /// The login completed.
        case succeeded(mvpd: String, generation: Int)
        /// The code expired.
        case expired(generation: Int)
        /// Polling failed for good.
        case failed(AccessEnablerError, generation: Int)
    }

    let interval: TimeInterval
    private(set) var state: State = .idle
    private var generation = 0

    init(interval: TimeInterval = Self.defaultInterval) {
        self.interval = min(Self.maximumInterval, max(Self.minimumInterval, interval))
    }

    /// Starts polling `code` (a previous code's polling stops: its answers are ignored from now on).
    mutating func start(code: String, notAfter: Date?, now: Date) -> Action {
        generation += 1
        let deadline = notAfter ?? now.addingTimeInterval(Self.defaultLifetime)
        guard deadline > now else {
            state = .idle
            return .expired(generation: generation)
        }
        state = .polling(code: code, notAfter: deadline, generation: generation)
        return .pollAfter(seconds: min(interval, deadline.timeIntervalSince(now)), generation: generation)
    }

    /// A poll of `generation` finished at `now`.
    mutating func pollCompleted(generation: Int, result: PollResult, now: Date) -> Action {
        guard case .polling(_, let notAfter, let current) = state, current == generation else { return .none }
        switch result {
        case .authenticated(let mvpd):
            state = .idle
            return .succeeded(mvpd: mvpd, generation: generation)
        case .failed(let error):
            state = .idle
            return .failed(error, generation: generation)
        case .pending, .transientFailure, .throttled:
            let remaining = notAfter.timeIntervalSince(now)
            guard remaining > 0 else {
                state = .idle
                return .expired(generation: generation)
            }
            var delay = interval
            if case .throttled(let retryAfter) = result { delay = max(interval, retryAfter) }
            return .pollAfter(seconds: min(delay, remaining), generation: generation)
        }
    }

    /// Stops polling. Returns true when polling was running.
    @discardableResult
    mutating func cancel() -> Bool {
        guard case .polling = state else { return false }
        state = .idle
        return true
    }

    /// The code being polled.
    var code: String? {
        if case .polling(let code, _, _) = state { return code }
        return nil
    }
}
