#if canImport(VideoSubscriberAccount) && canImport(UIKit)
import Foundation
import UIKit
import VideoSubscriberAccount

/// Platform single sign-on through Apple's VideoSubscriberAccount framework (Settings › TV Provider).
///
/// Permission comes from `VSAccountManager.checkAccessStatus`; the provider from a `VSAccountMetadataRequest` whose
/// picker is shown through the SDK's `presentTvProviderDialog(_:)`; the SAML answer from a second request carrying
/// the service's AuthnRequest as `verificationToken`. Errors map to the documented statuses (protocol notes §8.5).
/// Note: built only on Apple platforms; the project's CI (Linux) runs the same engine flow against
/// ``PortablePlatformAccount``.
public final class VideoSubscriberAccountSSO: PlatformSingleSignOn {
    /// Creates the platform account.
    public init() {}

    /// `checkAccessStatus(options: [.prompt: prompt])`.
    public func accessStatus(prompt: Bool) async -> PlatformAccessStatus {
        await Self.checkAccess(prompt: prompt)
    }

    /// A metadata request for the provider id and the sign-in's expiration date.
    public func selectProvider(
        _ request: PlatformProviderRequest,
        presenter: TVProviderDialogPresenter
    ) async throws(PlatformSSOError) -> PlatformProviderInfo {
        let result = await Self.metadata(presenter: presenter) { metadataRequest in
            metadataRequest.channelIdentifier = request.channelIdentifier
            metadataRequest.supportedAccountProviderIdentifiers = request.supportedProviderIDs
            metadataRequest.featuredAccountProviderIdentifiers = request.featuredProviderIDs
            metadataRequest.includeAccountProviderIdentifier = true
            metadataRequest.includeAuthenticationExpirationDate = true
            metadataRequest.isInterruptionAllowed = true
        }
        let answer = try result.get()
        guard let provider = answer.provider else { throw PlatformSSOError(.otherProvider) }
        return PlatformProviderInfo(providerID: provider, expirationDate: answer.expiration)
    }

    /// A metadata request carrying the service's AuthnRequest; returns `samlAttributeQueryResponse`.
    public func attributeQuery(_ query: PlatformAttributeQuery) async throws(PlatformSSOError) -> String {
        let presenter = TVProviderDialogPresenter(present: { _ in }, dismiss: { _ in })
        let result = await Self.metadata(presenter: presenter) { metadataRequest in
            metadataRequest.channelIdentifier = query.channelIdentifier
            metadataRequest.supportedAccountProviderIdentifiers = [query.providerID]
            metadataRequest.verificationToken = query.verificationToken
            metadataRequest.attributeNames = query.attributeNames
            metadataRequest.isInterruptionAllowed = false
        }
        guard let response = try result.get().saml else { throw PlatformSSOError(.providerUnavailable, details: "No SAML answer.") }
        return response
    }

    private struct Answer: Sendable {
        var provider: String?
        var expiration: Date?
        var saml: String?
    }

    @MainActor private static func checkAccess(prompt: Bool) async -> PlatformAccessStatus {
        let manager = VSAccountManager()
        // The handler is `@Sendable` and "may be called on any queue": it touches only the continuation.
        let status: PlatformAccessStatus = await withCheckedContinuation { continuation in
            manager.checkAccessStatus(options: [.prompt: prompt]) { @Sendable status, _ in
                switch status {
                case .granted: continuation.resume(returning: .granted)
                case .denied: continuation.resume(returning: .denied)
                case .restricted: continuation.resume(returning: .restricted)
                default: continuation.resume(returning: .notDetermined)
                }
            }
        }
        withExtendedLifetime(manager) {}
        return status
    }

    @MainActor private static func metadata(
        presenter: TVProviderDialogPresenter,
        configure: (VSAccountMetadataRequest) -> Void
    ) async -> Result<Answer, PlatformSSOError> {
        let manager = VSAccountManager()
        let relay = DialogRelay(presenter: presenter)
        manager.delegate = relay
        let request = VSAccountMetadataRequest()
        configure(request)
        // The handler "may be called on any queue": a `@Sendable` closure that touches only its arguments and the
        // continuation; the manager and its delegate stay alive until it has run.
        let result: Result<Answer, PlatformSSOError> = await withCheckedContinuation { continuation in
            _ = manager.enqueue(request) { @Sendable metadata, error in
                if let error {
                    continuation.resume(returning: .failure(Self.map(error)))
                } else {
                    continuation.resume(
                        returning: .success(
                            Answer(
                                provider: metadata?.accountProviderIdentifier,
                                expiration: metadata?.authenticationExpirationDate,
                                saml: metadata?.samlAttributeQueryResponse)))
                }
            }
        }
        withExtendedLifetime((manager, relay)) {}
        return result
    }

    /// VideoSubscriberAccount errors → the SDK's platform error codes.
    private static func map(_ error: any Error) -> PlatformSSOError {
        let details = String(describing: error)
        guard let vsError = error as? VSError else { return PlatformSSOError(.other, details: details) }
        switch vsError.code {
        case .accessNotGranted: return PlatformSSOError(.accessDenied, details: details)
        case .userCancelled: return PlatformSSOError(.cancelled, details: details)
        case .unsupportedProvider:
            let provider = vsError.errorUserInfo[VSErrorInfoKeyUnsupportedProviderIdentifier] as? String
            return PlatformSSOError(provider == nil ? .otherProvider : .unsupportedProvider, details: details)
        case .serviceTemporarilyUnavailable, .providerRejected: return PlatformSSOError(.providerUnavailable, details: details)
        default: return PlatformSSOError(.other, details: details)
        }
    }

    /// Forwards the framework's view controllers to the SDK's presenter. Not actor-isolated: the protocol is not, and
    /// it only hands the (main-actor, hence Sendable) view controller to the presenter's Sendable closures.
    private final class DialogRelay: NSObject, VSAccountManagerDelegate, Sendable {
        let presenter: TVProviderDialogPresenter
        init(presenter: TVProviderDialogPresenter) { self.presenter = presenter }
        func accountManager(_ accountManager: VSAccountManager, present viewController: UIViewController) { presenter.present(viewController) }
        func accountManager(_ accountManager: VSAccountManager, dismiss viewController: UIViewController) { presenter.dismiss(viewController) }
    }
}
#endif
