import EntitleModel
import EntitleStorage
import Synchronization

/// MVPD authorization answers kept for the integration's authorization TTL, as Adobe Pass does: one MVPD call per
/// profile and resource per TTL, not per play. Concurrent identical questions share one call (single flight).
///
/// An answer is never served for another sign-in (the key carries the profile's sign-in: its start and SAML session),
/// after the user's logout or new sign-in on this instance (``drop(requestor:mvpd:userID:)``), after any catalog change
/// seen by this instance — a degradation rule, an MVPD setting, `entitle admin cache flush` — (the catalog
/// generation), or after it expires. Failures are not kept; denials are kept at most ``deniedTTL`` ms. Bounded:
/// past `capacity` answers, everything is dropped.
package final class AuthorizationCache: Sendable {
    /// How long a denial is kept at most, ms (a subscriber who upgrades sees the upgrade within a minute).
    package static let deniedTTL: Int64 = 60_000

    /// Who is asking: all answers of one subscriber at one MVPD for one requestor.
    package struct Subject: Hashable, Sendable {
        package let requestor: String
        package let mvpd: String
        package let userID: String

        /// Creates the value from each of its stored properties.
        package init(requestor: String, mvpd: String, userID: String) {
            self.requestor = requestor
            self.mvpd = mvpd
            self.userID = userID
        }
    }

    /// One sign-in of the subject: when it began, its MVPD session, and the client application and device it was made on.
    package struct SignIn: Hashable, Sendable {
        package let notBefore: Int64
        package let session: String
        package let client: String
        package let device: String

        /// Creates the value from each of its stored properties.
        package init(notBefore: Int64, session: String, client: String, device: String) {
            self.notBefore = notBefore
            self.session = session
            self.client = client
            self.device = device
        }
    }

    /// What is asked: a resource, for one sign-in of the subject.
    package struct Question: Hashable, Sendable {
        package let signIn: SignIn
        package let resource: String

        /// Creates the value from each of its stored properties.
        package init(signIn: SignIn, resource: String) {
            self.signIn = signIn
            self.resource = resource
        }
    }

    package enum Entry: Sendable {
        case answer(MVPDAuthorizationClient.Verdict, expiresAt: Int64, catalogGeneration: UInt64)
        case inFlight(Task<MVPDAuthorizationClient.Verdict, Never>, id: UInt64)
    }

    package struct State: Sendable {
        package var subjects: [Subject: [Question: Entry]] = [:]
        package var count = 0
        package var nextID: UInt64 = 0
        package var calls = 0

        /// Creates the value from each of its stored properties.
        package init(subjects: [Subject: [Question: Entry]] = [:], count: Int = 0, nextID: UInt64 = 0, calls: Int = 0) {
            self.subjects = subjects
            self.count = count
            self.nextID = nextID
            self.calls = calls
        }
    }

    /// Most answers kept.
    package let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache.
    package init(capacity: Int = 100_000) { self.capacity = capacity }

    /// The MVPD's answer for `question`, from memory while fresh, else from `ask` (shared by concurrent callers).
    /// `ttl` is the authorization TTL in ms (0: never kept); an MVPD's own TTL (`authorizedFor`, XACML `re-authz`) replaces
    /// it for a permit; `notAfter` caps it (the profile's end). `fresh` asks the MVPD even when a kept answer is fresh (the
    /// client sent `Cache-Control: no-cache`), and keeps the new answer.
    package func answer(
        subject: Subject, question: Question, now: Int64, ttl: Int64, notAfter: Int64, catalogGeneration: UInt64, fresh: Bool = false,
        ask: @escaping @Sendable () async -> MVPDAuthorizationClient.Verdict
    ) async -> MVPDAuthorizationClient.Verdict {
        guard ttl > 0 else {
            state.withLock { $0.calls += 1 }
            return await ask()
        }
        enum Step {
            case hit(MVPDAuthorizationClient.Verdict), wait(Task<MVPDAuthorizationClient.Verdict, Never>), lead(
                Task<MVPDAuthorizationClient.Verdict, Never>, UInt64)
        }
        let step: Step = state.withLock { state in
            switch state.subjects[subject]?[question] {
            case .answer(let verdict, let expiresAt, let generation) where !fresh && expiresAt > now && generation == catalogGeneration:
                return .hit(verdict)
            case .inFlight(let task, _):
                return .wait(task)
            default:
                let task = Task { await ask() }
                state.calls += 1
                state.nextID &+= 1
                if state.subjects[subject]?[question] == nil { state.count += 1 }
                if state.count > capacity {
                    state.subjects.removeAll()
                    state.count = 1
                }
                state.subjects[subject, default: [:]][question] = .inFlight(task, id: state.nextID)
                return .lead(task, state.nextID)
            }
        }
        switch step {
        case .hit(let verdict): return verdict
        case .wait(let task): return await task.value
        case .lead(let task, let id):
            let verdict = await task.value
            let keep: Int64
            switch verdict {
            case .authorized: keep = ttl
            case .authorizedFor(let seconds, _): keep = seconds.map { $0 * 1000 } ?? ttl
            case .denied: keep = min(ttl, Self.deniedTTL)
            case .failed: keep = 0
            }
            let expiresAt = min(now + keep, notAfter)
            state.withLock { state in
                // Only the call this leader started is replaced: a drop or a newer call meanwhile wins.
                guard case .inFlight(_, let current) = state.subjects[subject]?[question], current == id else { return }
                if expiresAt > now {
                    state.subjects[subject]?[question] = .answer(verdict, expiresAt: expiresAt, catalogGeneration: catalogGeneration)
                } else {
                    state.subjects[subject]?[question] = nil
                    state.count -= 1
                }
            }
            return verdict
        }
    }

    /// Drops every answer of a subscriber at an MVPD for a requestor (logout, new sign-in).
    package func drop(requestor: String, mvpd: String, userID: String) {
        state.withLock { state in
            if let removed = state.subjects.removeValue(forKey: Subject(requestor: requestor, mvpd: mvpd, userID: userID)) {
                state.count -= removed.count
            }
        }
    }

    /// Drops everything.
    package func removeAll() {
        state.withLock { state in
            state.subjects.removeAll()
            state.count = 0
        }
    }

    /// How many questions went to MVPDs since the start (for tests and metrics).
    package var mvpdCalls: Int { state.withLock { $0.calls } }

    /// The number of answers (and calls in flight) kept.
    package var count: Int { state.withLock { $0.count } }
}
