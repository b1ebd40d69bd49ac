import Foundation

#if canImport(VideoSubscriberAccount) && canImport(UIKit)
import UIKit

/// The platform's TV-provider picker handed to `presentTvProviderDialog(_:)`: a `UIViewController` on Apple platforms.
public typealias TVProviderDialog = UIViewController
#else
/// The platform's TV-provider picker handed to `presentTvProviderDialog(_:)`: ``PortableTVProviderDialog`` where
/// there is no VideoSubscriberAccount.
public typealias TVProviderDialog = PortableTVProviderDialog
#endif

/// How a ``PlatformSingleSignOn`` shows and hides its picker: the SDK turns these into the delegate's
/// `presentTvProviderDialog(_:)` and `dismissTvProviderDialog(_:)`.
public struct TVProviderDialogPresenter: Sendable {
    /// Shows the picker.
    public var present: @Sendable (TVProviderDialog) -> Void
    /// Hides the picker.
    public var dismiss: @Sendable (TVProviderDialog) -> Void

    /// Creates a presenter.
    public init(present: @escaping @Sendable (TVProviderDialog) -> Void, dismiss: @escaping @Sendable (TVProviderDialog) -> Void) {
        self.present = present
        self.dismiss = dismiss
    }
}

/// A provider of the platform's picker.
public struct PlatformAccountProvider: Sendable, Hashable {
    /// The platform's provider id (an MVPD's `platformMappingId`).
    public var id: String
    /// The name the picker shows.
    public var displayName: String
    /// Where the platform relays SAML requests for this provider (the DemoMVPD's `…/platform/sso`).
    public var signOnURL: URL

    /// Creates a provider.
    public init(id: String, displayName: String, signOnURL: URL) {
        self.id = id
        self.displayName = displayName
        self.signOnURL = signOnURL
    }
}

/// The portable TV-provider picker: what the system shows, as an object the app (or a test) answers — pick a
/// provider and sign in, pick "other TV provider", or cancel. Answers after the first are ignored.
public final class PortableTVProviderDialog: Sendable {
    /// What the user did.
    enum Choice: Sendable, Equatable {
        case signIn(providerID: String, username: String, password: String)
        case otherProvider
        case cancelled
    }

    private struct State {
        var choice: Choice?
        var waiter: CheckedContinuation<Choice, Never>?
    }

    /// The providers the picker lists: the featured ones first, then the others by name.
    public let providers: [PlatformAccountProvider]
    /// The ids the app supports, in the order it gave (`TV_PROVIDERS`); choosing another provider fails with `N004`.
    public let supportedProviderIDs: [String]
    /// The ids the app asked to feature (`FEATURED_TV_PROVIDERS`).
    public let featuredProviderIDs: [String]
    private let state = Locked(State())

    /// Creates the picker for `providers`, featuring `featuredProviderIDs` at the top in their order.
    public init(providers: [PlatformAccountProvider], supportedProviderIDs: [String], featuredProviderIDs: [String]) {
        let featured = featuredProviderIDs.compactMap { id in providers.first { $0.id == id } }
        let others = providers.filter { !featuredProviderIDs.contains($0.id) }.sorted { $0.displayName < $1.displayName }
        self.providers = featured + others
        self.supportedProviderIDs = supportedProviderIDs
        self.featuredProviderIDs = featuredProviderIDs
    }

    /// The user picks `providerID` and signs in to it with the provider's credentials.
    public func signIn(providerID: String, username: String, password: String) {
        answer(.signIn(providerID: providerID, username: username, password: password))
    }

    /// The user picks "other TV provider".
    public func chooseOtherProvider() { answer(.otherProvider) }

    /// The user closes the picker.
    public func cancel() { answer(.cancelled) }

    /// Waits for the user's answer (cancelled when the task is).
    func choice() async -> Choice {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Choice? = state.withLock { state in
                    if let choice = state.choice { return choice }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    private func answer(_ choice: Choice) {
        let waiter: CheckedContinuation<Choice, Never>? = state.withLock { state in
            guard state.choice == nil else { return nil }
            state.choice = choice
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: choice)
    }
}
