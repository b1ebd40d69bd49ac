import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``TokenStore`` of one file per key in a directory that only the owner can read (directory 0700, files 0600).
///
/// Writes are atomic: the data goes to a fresh temporary file that is flushed to disk and then renamed over the
/// old one, so a crash mid-write leaves either the old or the new value, never a torn file. Leftover temporary
/// files are ignored and cleaned up.
public struct FileTokenStore: TokenStore {
    /// The directory holding the files.
    public let directory: URL

    /// Creates a store in `directory`, creating it (mode 0700) when needed.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        _ = chmod(directory.path, 0o700)
        try removeLeftovers()
    }

    /// A store in the user's configuration directory (`~/.config/<name>` on Linux, Application Support on Apple).
    public static func userDefault(name: String = "entitle") throws -> FileTokenStore {
        #if canImport(Darwin)
        let base = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        #endif
        return try FileTokenStore(directory: base.appendingPathComponent(name, isDirectory: true))
    }

    /// Reads the file of `key`.
    public func load(_ key: String) async throws -> Data? {
        let url = fileURL(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Writes the file of `key` atomically with mode 0600.
    public func save(_ data: Data, for key: String) async throws {
        let target = fileURL(key)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw Self.posixError("open") }
        var ok = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary.path, target.path) == 0 else {
            let error = Self.posixError("write")
            unlink(temporary.path)
            throw error
        }
        let directoryFD = open(directory.path, O_RDONLY)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Deletes the file of `key`.
    public func remove(_ key: String) async throws {
        if unlink(fileURL(key).path) != 0 && errno != ENOENT { throw Self.posixError("unlink") }
    }

    /// The file of `key`: the key with every byte outside `[A-Za-z0-9._-]` percent-encoded.
    func fileURL(_ key: String) -> URL {
        var name = ""
        for byte in key.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || scalar == "-" || scalar == "_" || (scalar == "." && !name.isEmpty)
            {
                name.unicodeScalars.append(scalar)
            } else {
                name += String(format: "%%%02X", byte)
            }
        }
        return directory.appendingPathComponent(name.isEmpty ? "%" : name)
    }

    private func removeLeftovers() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".tmp-") { unlink(directory.appendingPathComponent(name).path) }
    }

    private static func posixError(_ operation: String) -> AccessEnablerError {
        AccessEnablerError(code: .storage, message: "\(operation) failed: \(String(cString: strerror(errno)))")
    }
}
