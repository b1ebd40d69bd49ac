import Foundation

/// The package's root folder (the one holding `Package.swift`), found from this file's place, so a test reads scripts and
/// fixtures the same way wherever its own file sits.
package enum PackageRoot {
    package static let url: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    package static var path: String { url.path }
}
