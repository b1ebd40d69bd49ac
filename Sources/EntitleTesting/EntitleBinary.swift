import EntitleClients
import Foundation

/// The `entitle` binary the tests run: `ENTITLE_BINARY`, next to the test bundle, or this checkout's `.build/debug/entitle`.
package enum EntitleBinary {
    /// Its path; throws, naming where it looked, when none is there.
    package static func path() throws -> String {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] { candidates.append(path) }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("entitle").path)
            candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("entitle").path)
        }
        candidates.append(PackageRoot.url.appendingPathComponent(".build/debug/entitle").path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BrowserError("entitle binary not found (build it with `swift build --build-tests`); looked at \(candidates)")
        }
        return found
    }
}
