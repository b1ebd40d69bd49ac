import EntitleHost
import ChildProcess
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A PostgreSQL server of a test's own, in a temporary directory on a free loopback port, that the test may stop and
/// start again (the suite's shared server must not be stopped). Nil when PostgreSQL is not installed.
final class ThrowawayPostgres: Sendable {
    let binaries: String
    let directory: String
    let port: Int
    let asRoot: Bool
    /// More server settings for `postgres -o` (e.g. `-c ssl=on`).
    let serverOptions: String

    /// The URL of its `postgres` database.
    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    init?(serverOptions: String = "") throws {
        self.serverOptions = serverOptions
        let base = "/usr/lib/postgresql"
        guard let versions = try? FileManager.default.contentsOfDirectory(atPath: base),
            let newest = versions.compactMap(Int.init).max()
        else { return nil }
        binaries = "\(base)/\(newest)/bin"
        directory = NSTemporaryDirectory() + "entitle-own-pg-" + UUID().uuidString
        asRoot = getuid() == 0
        port = try freePort()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asRoot { try Self.run("/usr/bin/chown", ["postgres", directory]) }
        try postgres("initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres"])
        try start()
    }

    func start() throws {
        try postgres(
            "pg_ctl",
            [
                "-D", directory + "/data", "-o", "-h 127.0.0.1 -p \(port) -k \(directory) \(serverOptions)", "-l", directory + "/log", "-w", "-t",
                "120", "start",
            ])
    }

    func stop() throws { try postgres("pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "120", "stop"]) }

    /// Stops the server (if running) and removes its directory.
    func remove() {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func postgres(_ tool: String, _ arguments: [String]) throws {
        if asRoot {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + tool] + arguments)
        } else {
            try Self.run(binaries + "/" + tool, arguments)
        }
    }

    /// Runs a tool to its end (``ChildProcess``: `pg_ctl start` leaves a daemon behind, which Foundation's `Process`
    /// may keep waiting for; the child's descriptors are closed, so the daemon holds none of ours).
    static func run(_ executable: String, _ arguments: [String]) throws {
        guard try ChildProcess(executable: executable, arguments: arguments).waitUntilExit() == 0 else { throw POSIXError(.EIO) }
    }
}
