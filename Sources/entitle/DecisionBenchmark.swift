import AsyncHTTPClient
import EntitleCore
import EntitleClients
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation
import Logging
import NIOHTTP1

/// Measures authorization decisions per second and their p50/p99 latency at a fixed concurrency against a running
/// service, then the same figures for `GET /healthz` in the same run, as the baseline of the ratio.
///
/// Setup: one client registration from the software statement, then one device per worker, each signed in through the
/// browser leg (DemoMVPD login form and SAML POST). Each worker then sends `POST decisions/authorize/{mvpd}` for one
/// resource back to back; a success is HTTP 200 with an authorized decision carrying a media token.
struct DecisionBenchmark: Sendable {
    /// What to measure.
    struct Options: Sendable {
        /// Concurrent workers (one device each).
        var concurrency = 8
        /// Measured time per phase.
        var duration: Duration = .seconds(10)
        /// Unmeasured time per phase before measuring.
        var warmup: Duration = .seconds(1)
        /// The resource to authorize.
        var resource = "news"
        /// The MVPD to sign in at.
        var mvpd = "DemoCable"
        /// The subscriber.
        var username = "alice"
        /// The subscriber's password.
        var password = "alice-pass"
        /// The requestor id.
        var serviceProvider = "REF"
        /// The redirect URL of the sessions (registered in the software statement).
        var redirectURL = "adobepass://ios.app"
        /// Creates the defaults: 8 workers, 10 s, `news` at DemoCable as alice.
        init() {}
    }

    /// The figures of one phase.
    struct Measurement: Sendable, Codable, Equatable {
        /// `decisions` or `healthz`.
        var name: String
        /// Successful requests in the measured window.
        var successes: Int
        /// Failed requests (transport error, unexpected status, denied decision).
        var errors: Int
        /// Length of the measured window in seconds.
        var seconds: Double
        /// Successes per second.
        var requestsPerSecond: Double
        /// Median latency of successes, in milliseconds.
        var p50Milliseconds: Double
        /// 99th percentile latency of successes, in milliseconds.
        var p99Milliseconds: Double
        /// The first failure seen, to diagnose errors.
        var firstError: String?
    }

    /// The result of a run.
    struct Report: Sendable, Codable, Equatable {
        /// The base URL measured.
        var target: String
        /// Concurrent workers.
        var concurrency: Int
        /// Measured seconds per phase.
        var durationSeconds: Double
        /// The resource authorized.
        var resource: String
        /// Authorization decisions.
        var decisions: Measurement
        /// The `/healthz` baseline.
        var healthz: Measurement
        /// Decisions per second divided by `/healthz` requests per second.
        var ratio: Double
    }

    /// The HTTP client the workers share (its pool should allow `concurrency` connections).
    let httpClient: HTTPClient
    /// Base URL of the service.
    let baseURL: String
    /// The software statement (JWT) to register with.
    let softwareStatement: String
    /// What to measure.
    let options: Options
    /// Progress logging.
    let logger: Logger

    /// Creates a benchmark.
    init(httpClient: HTTPClient, baseURL: String, softwareStatement: String, options: Options, logger: Logger) {
        self.httpClient = httpClient
        self.baseURL = baseURL
        self.softwareStatement = softwareStatement
        self.options = options
        self.logger = logger
    }

    /// Runs setup and both phases, timed with `ContinuousClock`.
    func run() async throws -> Report {
        try await run(clock: ContinuousClock())
    }

    /// Runs setup and both phases, timed with `clock`.
    func run<C: Clock>(clock: C) async throws -> Report where C.Duration == Duration {
        let workers = try await signedInWorkers()
        let resource = options.resource, mvpd = options.mvpd
        let decisions = await measure("decisions", workers: workers, clock: clock) { client in
            do {
                let answer = try await client.decisions("authorize", mvpd: mvpd, resources: [resource])
                guard answer.status == 200, let items = try? answer.decode(DecisionsResponse.self).decisions,
                    items.count == 1, items[0].authorized, items[0].token != nil
                else {
                    return "HTTP \(answer.status): \(answer.text.prefix(300))"
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
        let healthz = await measure("healthz", workers: workers, clock: clock) { client in
            do {
                let answer = try await client.send(.GET, "/healthz", authorized: false)
                return answer.status == 200 ? nil : "HTTP \(answer.status): \(answer.text.prefix(300))"
            } catch {
                return "\(error)"
            }
        }
        return Report(
            target: baseURL, concurrency: options.concurrency, durationSeconds: Self.seconds(options.duration),
            resource: options.resource, decisions: decisions, healthz: healthz,
            ratio: healthz.requestsPerSecond > 0 ? decisions.requestsPerSecond / healthz.requestsPerSecond : 0)
    }

    /// Registers once, then signs the subscriber in on one device per worker and checks one decision on each.
    func signedInWorkers() async throws -> [RESTClient] {
        let runID = UUID().uuidString.prefix(8).lowercased()
        var registered = RESTClient(
            httpClient: httpClient, baseURL: baseURL, serviceProvider: options.serviceProvider,
            deviceID: "bench-\(runID)-setup")
        _ = try await registered.registerAndAuthorize(softwareStatement: softwareStatement, redirectURI: options.redirectURL)
        var workers: [RESTClient] = []
        for index in 0..<max(1, options.concurrency) {
            var client = registered
            client.deviceID = "bench-\(runID)-\(index)"
            let session = try await client.createSession(mvpd: options.mvpd, redirectURL: options.redirectURL)
            guard session.status == 200, let answer = try? session.decode(SessionResponse.self), let url = answer.url else {
                throw BenchmarkError(.session, "Could not create a session: HTTP \(session.status) \(session.text.prefix(300))")
            }
            if answer.actionName != "authorize" {
                let outcome = try await DemoSignIn.signIn(
                    browser: BrowserClient(httpClient: httpClient), authenticationURL: baseURL + url,
                    username: options.username, password: options.password)
                guard case .external(let redirect) = outcome, redirect.hasPrefix(options.redirectURL) else {
                    throw BenchmarkError(.signIn, "Sign-in of \(options.username) at \(options.mvpd) did not reach the redirect URL: \(outcome)")
                }
            }
            let check = try await client.decisions("authorize", mvpd: options.mvpd, resources: [options.resource])
            guard check.status == 200, let decision = try? check.decode(DecisionsResponse.self).decisions.first, decision.authorized else {
                throw BenchmarkError(
                    .notAuthorized, "\(options.username) is not authorized for \(options.resource): HTTP \(check.status) \(check.text.prefix(300))")
            }
            workers.append(client)
        }
        logger.info("benchmark workers signed in", metadata: ["workers": "\(workers.count)", "mvpd": "\(options.mvpd)"])
        return workers
    }

    /// What one worker saw in the measured window.
    struct WorkerResult<Instant: InstantProtocol>: Sendable {
        var latencies: [Double] = []
        var errors = 0
        var firstError: String?
        var finishedAt: Instant
    }

    /// Runs `request` back to back on every worker for warm-up plus duration; only requests started in the measured
    /// window count. `request` answers nil on success, else a description of the failure.
    func measure<C: Clock>(
        _ name: String, workers: [RESTClient], clock: C,
        request: @escaping @Sendable (RESTClient) async -> String?
    ) async -> Measurement where C.Duration == Duration {
        let measureFrom = clock.now.advanced(by: options.warmup)
        let measureUntil = measureFrom.advanced(by: options.duration)
        let results = await withTaskGroup(of: WorkerResult<C.Instant>.self) { group in
            for worker in workers {
                group.addTask {
                    var result = WorkerResult<C.Instant>(finishedAt: measureFrom)
                    while true {
                        let start = clock.now
                        guard start < measureUntil else { break }
                        let failure = await request(worker)
                        let end = clock.now
                        guard start >= measureFrom else { continue }
                        result.finishedAt = end
                        if let failure {
                            result.errors += 1
                            if result.firstError == nil { result.firstError = failure }
                        } else {
                            result.latencies.append(Self.seconds(start.duration(to: end)) * 1000)
                        }
                    }
                    return result
                }
            }
            var all: [WorkerResult<C.Instant>] = []
            for await result in group { all.append(result) }
            return all
        }
        let latencies = results.flatMap(\.latencies).sorted()
        let lastFinish = results.map(\.finishedAt).max() ?? measureUntil
        let seconds = max(Self.seconds(measureFrom.duration(to: max(lastFinish, measureUntil))), 1e-9)
        let measurement = Measurement(
            name: name, successes: latencies.count, errors: results.reduce(0) { $0 + $1.errors },
            seconds: seconds, requestsPerSecond: Double(latencies.count) / seconds,
            p50Milliseconds: Self.percentile(latencies, 0.50), p99Milliseconds: Self.percentile(latencies, 0.99),
            firstError: results.compactMap(\.firstError).first)
        logger.info(
            "benchmark phase done",
            metadata: [
                "phase": "\(name)", "successes": "\(measurement.successes)",
                "errors": "\(measurement.errors)",
            ])
        return measurement
    }

    /// Nearest-rank percentile of ascending `sorted` values (`p` in 0...1); 0 for no values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A benchmark that could not be set up.
struct BenchmarkError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure (an open set).
    struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        let description: String
        /// Creates a code.
        init(_ description: String) { self.description = description }
        /// An authentication session could not be created.
        static let session = Code("session")
        /// The browser leg did not reach the redirect URL.
        static let signIn = Code("sign_in")
        /// The subscriber is not authorized for the resource.
        static let notAuthorized = Code("not_authorized")
        /// The in-process service ended without a result.
        static let noResult = Code("no_result")
    }

    /// What kind of failure.
    let code: Code
    /// What went wrong.
    let description: String
    /// Creates an error.
    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

extension DecisionBenchmark {
    /// Runs `body` against an in-process host (service and DemoMVPD with the demo world on a free loopback port, SQLite
    /// in a temporary directory or a throwaway PostgreSQL database when `ENTITLE_TEST_DATABASE_URL` is set, throttling
    /// disabled), stopped and removed afterwards. `body` receives the base URL and the demo software statement.
    static func withInProcessHost<T: Sendable>(_ body: (_ baseURL: String, _ softwareStatement: String) async throws -> T) async throws -> T {
        var configuration = HostConfiguration()
        configuration.rateLimitPerSecond = 0
        configuration.catalogRefresh = .zero
        var logger = Logger(label: "entitle.bench")
        logger.logLevel = .warning
        var result: T?
        try await EntitleHost.runOnLoopback(configuration: configuration, logger: logger, clock: ManualClock()) { host in
            guard let statement = host.demoInfo?.softwareStatement else {
                throw BenchmarkError(.noResult, "The in-process service has no demo world.")
            }
            result = try await body(host.configuration.baseURL, statement)
        }
        guard let result else { throw BenchmarkError(.noResult, "The in-process service stopped without a result.") }
        return result
    }
}
