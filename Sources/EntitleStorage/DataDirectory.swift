#if canImport(Glibc)
import EntitleModel
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging

/// The data directory holds the SQLite database (with the service's private signing keys), the DemoMVPD's keys and the
/// demo files: everything in it is owner-only — directories 0700, files 0600 — whatever the mode of the directory it
/// was created in and whatever the process umask.
package enum DataDirectory {
    /// Mode of every directory in the data directory.
    package static let directoryMode: mode_t = 0o700
    /// Mode of every file in the data directory.
    package static let fileMode: mode_t = 0o600

    /// The entries Entitle keeps in a data directory; only these (and everything below them) are tightened, so that a
    /// data directory pointed at a shared folder does not change the modes of files that are not Entitle's.
    package static let ownEntries: Set<String> = [
        "entitle.sqlite", "entitle.sqlite-wal", "entitle.sqlite-shm", "entitle.sqlite-journal",
        "demo", "demo-mvpd", "before-restore",
    ]

    /// Creates `path` when missing and makes Entitle's entries in it (and everything below them) owner-only; the
    /// directory itself too when it holds nothing else. Each tightened entry is logged.
    package static func secure(_ path: String, logger: Logger) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: Int(directoryMode)])
        let entries = try FileManager.default.contentsOfDirectory(atPath: path)
        if entries.allSatisfy(ownEntries.contains) {
            tighten(path, logger: logger)
        } else {
            logger.notice(
                "data directory holds other files: its own mode is left as is, Entitle's files in it are owner-only",
                metadata: ["path": "\(path)"])
        }
        for entry in entries where ownEntries.contains(entry) {
            let entryPath = path + "/" + entry
            tighten(entryPath, logger: logger)
            guard let below = FileManager.default.enumerator(atPath: entryPath) else { continue }
            for case let name as String in below { tighten(entryPath + "/" + name, logger: logger) }
        }
    }

    /// Creates an empty owner-only file at `path` unless one exists (so that a library creating it later keeps the mode).
    package static func createPrivateFile(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw ConfigurationError("Cannot create \(path): \(String(cString: strerror(errno))).") }
        close(descriptor)
    }

    /// Writes `data` to a new owner-only file at `path` (replacing any file there); the file is never readable by others,
    /// not even for a moment. A missing folder is created owner-only; an existing one keeps its mode (it may be shared,
    /// such as `/tmp`: the data directory's own folders are tightened by ``secure(_:logger:)``).
    package static func writePrivateFile(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: Int(directoryMode)])
            _ = chmod(folder, directoryMode)
        }
        let temporary = path + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw ConfigurationError("Cannot create \(path): \(String(cString: strerror(errno))).") }
        _ = fchmod(descriptor, fileMode)
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ConfigurationError("Cannot write \(path).")
        }
    }

    /// Takes every group and other permission (and set-id bits) from a directory or regular file, logging when it had any.
    package static func tighten(_ path: String, logger: Logger) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFDIR || kind == S_IFREG else { return }  // symbolic links and others are left alone
        let current = status.st_mode & 0o7777
        guard current & 0o7077 != 0 else { return }
        let wanted = current & 0o700
        if chmod(path, wanted) == 0 {
            logger.notice(
                "tightened data directory permissions",
                metadata: ["path": "\(path)", "from": "\(String(current, radix: 8))", "to": "\(String(wanted, radix: 8))"])
        } else {
            logger.warning(
                "could not tighten data directory permissions",
                metadata: ["path": "\(path)", "error": "\(String(cString: strerror(errno)))"])
        }
    }
}
