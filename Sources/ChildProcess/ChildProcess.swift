import CChildProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests and scripts that run other programs.
///
/// Foundation's `Process` forks and, in the child, walks `/proc/self/fd` to close descriptors; on Linux that walk
/// can crash the child or the parent under load (swift-corelibs-foundation issue 5472), which showed as random
/// SIGSEGVs in test runs that start many processes. `posix_spawn` does the same job in the C library: standard
/// input, output and error are files (nothing blocks on a full pipe), every other descriptor is closed in the child.
public final class ChildProcess: @unchecked Sendable {
    /// An error starting or waiting for a process.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The process id.
    public let processIdentifier: pid_t
    private let lock = Mutex()
    private var exitStatus: Int32?

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    ///
    /// - Parameters:
    ///   - directory: the working directory (nil: this process's).
    ///   - environment: the whole environment (nil: this process's).
    ///   - standardInput: a file to read (nil: `/dev/null`).
    ///   - standardOutput: a file to write, created or truncated (nil: `/dev/null`).
    ///   - standardError: a file to write, created or truncated (nil: `/dev/null`); the same path as `standardOutput`
    ///     writes both to one file.
    public init(
        executable: String, arguments: [String], directory: String? = nil, environment: [String: String]? = nil,
        standardInput: String? = nil, standardOutput: String? = nil, standardError: String? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let standardError, standardError == standardOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        child_process_add_closefrom(&actions, 3)
        if let directory { child_process_add_chdir(&actions, directory) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environmentLines = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environmentLines.map { $0.map { strdup($0) } + [nil] }
        defer { for line in envp ?? [] { free(line) } }
        var pid = pid_t()
        let result =
            if let envp {
                posix_spawnp(&pid, executable, &actions, nil, argv, envp)
            } else {
                posix_spawnp(&pid, executable, &actions, nil, argv, environ)
            }
        guard result == 0 else { throw Failure("cannot start \(executable): \(String(cString: strerror(result)))") }
        processIdentifier = pid
    }

    deinit {
        // Never leave a zombie or an orphan behind.
        if exitStatus == nil {
            kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Whether the process is still running (reaps it when it has ended).
    public var isRunning: Bool { status(blocking: false) == nil }

    /// The exit status: the code given to `exit`, or 128 + the signal that ended it; nil while it runs.
    public var terminationStatus: Int32? { status(blocking: false) }

    /// Waits for the process to end, without blocking a thread; returns its ``terminationStatus``.
    @discardableResult
    public func wait() async throws -> Int32 {
        while true {
            if let status = status(blocking: false) { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the process to end, blocking this thread (for short synchronous tools).
    @discardableResult
    public func waitUntilExit() -> Int32 { status(blocking: true) ?? -1 }

    /// Sends `signal` if the process is still running.
    public func send(_ signal: Int32) { if isRunning { kill(processIdentifier, signal) } }

    /// Stops the process (SIGTERM, SIGKILL after `grace` seconds) and reaps it.
    public func terminate(grace: Double = 5) {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        var waited = 0.0
        while isRunning && waited < grace {
            usleep(20_000)
            waited += 0.02
        }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }

    private func status(blocking: Bool) -> Int32? {
        lock.locked {
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
            guard result == processIdentifier else { return nil }
            let signal = status & 0x7F
            exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            return exitStatus
        }
    }
}

/// A small mutex over pthread (this target depends on nothing but the C library).
private final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
