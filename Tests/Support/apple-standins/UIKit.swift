// Stand-in for Apple's `UIKit` (see README.md): the view-controller and scene API the SDK uses. Every class is
// `@MainActor`, as in UIKit.
import Foundation

/// `UIResponder`.
@available(iOS 2.0, tvOS 9.0, *) @available(macOS, unavailable)
@MainActor open class UIResponder: NSObject {}

/// `UIViewController`.
@available(iOS 2.0, tvOS 9.0, *) @available(macOS, unavailable)
@MainActor open class UIViewController: UIResponder {
    /// `presentedViewController`.
    open var presentedViewController: UIViewController? { fatalError("stand-in") }
    /// `present(_:animated:completion:)`.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) { fatalError("stand-in") }
    /// `dismiss(animated:completion:)`.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError("stand-in") }
}

/// `UIView`.
@available(iOS 2.0, tvOS 9.0, *) @available(macOS, unavailable)
@MainActor open class UIView: UIResponder {}

/// `UIWindow`.
@available(iOS 2.0, tvOS 9.0, *) @available(macOS, unavailable)
@MainActor open class UIWindow: UIView {
    /// `isKeyWindow`.
    open var isKeyWindow: Bool { fatalError("stand-in") }
    /// `rootViewController`.
    open var rootViewController: UIViewController? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `UIScene`.
@available(iOS 13.0, tvOS 13.0, *) @available(macOS, unavailable)
@MainActor open class UIScene: UIResponder {}

/// `UIWindowScene`.
@available(iOS 13.0, tvOS 13.0, *) @available(macOS, unavailable)
@MainActor open class UIWindowScene: UIScene {
    /// `windows`.
    open var windows: [UIWindow] { fatalError("stand-in") }
}

/// `UIApplication`.
@available(iOS 2.0, tvOS 9.0, *) @available(macOS, unavailable)
@MainActor open class UIApplication: UIResponder {
    /// `shared`.
    open class var shared: UIApplication { fatalError("stand-in") }
    /// `connectedScenes`.
    @available(iOS 13.0, tvOS 13.0, *)
    open var connectedScenes: Set<UIScene> { fatalError("stand-in") }
}
