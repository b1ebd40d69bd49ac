// Stand-in for Apple's `SafariServices` (see README.md): `SFSafariViewController` (iOS only).
import Foundation
import UIKit

/// `SFSafariViewController`.
@available(iOS 9.0, *) @available(tvOS, unavailable) @available(macOS, unavailable)
@MainActor open class SFSafariViewController: UIViewController {
    /// `init(url:)`.
    public init(url URL: URL) { fatalError("stand-in") }
}
