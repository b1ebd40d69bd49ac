import Foundation

/// Shows an MVPD's login page in a browser the SDK itself controls — SFSafariViewController on iOS — for MVPDs that
/// require it (`requiresSafariViewController`) when the app has not taken that over with `setOptions(["handleSVC": true])`.
/// The app still hands the final redirect to `handleExternalURL(_:)` (from its URL-scheme handler); the SDK then
/// closes the browser.
public protocol SafariViewPresenter: Sendable {
    /// Opens `url` (the login page).
    func open(_ url: URL) async
    /// Closes the browser (the login ended or was abandoned).
    func close() async
}

#if canImport(SafariServices) && canImport(UIKit) && !os(tvOS)
import SafariServices
import UIKit

/// Presents login pages in an `SFSafariViewController` over the key window's top-most view controller.
/// Note: built only on iOS; the project's CI (Linux) exercises the engine's use of ``SafariViewPresenter`` with a
/// presenter that drives a real HTTP browser client.
public final class SafariViewControllerPresenter: SafariViewPresenter {
    /// Creates the presenter.
    public init() {}

    /// Presents an `SFSafariViewController` for `url`.
    public func open(_ url: URL) async {
        await MainActor.run { Self.present(url) }
    }

    /// Dismisses the controller presented by ``open(_:)``.
    public func close() async {
        await MainActor.run { Self.dismissCurrent() }
    }

    @MainActor private static var current: SFSafariViewController?

    @MainActor private static func present(_ url: URL) {
        let windows = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        guard var top = windows.first(where: \.isKeyWindow)?.rootViewController else { return }
        while let presented = top.presentedViewController { top = presented }
        let controller = SFSafariViewController(url: url)
        current = controller
        top.present(controller, animated: true)
    }

    @MainActor private static func dismissCurrent() {
        current?.dismiss(animated: true)
        current = nil
    }
}
#endif
