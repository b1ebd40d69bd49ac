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
        port = try Self.freePort()
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

    /// Runs a tool to its end (posix_spawn and waitpid: `pg_ctl start` leaves a daemon behind, which Foundation's
    /// `Process` may keep waiting for).
    static func run(_ executable: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { throw POSIXError(.ENOENT) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw POSIXError(.EIO) }
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
