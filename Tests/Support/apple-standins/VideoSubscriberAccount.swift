// Stand-in for Apple's `VideoSubscriberAccount` (see README.md): the account-manager API the SDK uses. The
// framework is Objective-C without concurrency annotations except where Apple's Swift interface shows them
// (`checkAccessStatus`'s handler is `@Sendable`; handlers "may be called on any queue").
import Foundation
import UIKit

/// `VSAccountAccessStatus`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
public enum VSAccountAccessStatus: Int, @unchecked Sendable {
    case notDetermined = 0, restricted = 1, denied = 2, granted = 3
}

/// `VSCheckAccessOption`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
public struct VSCheckAccessOption: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `prompt`.
    public static let prompt = VSCheckAccessOption(rawValue: "VSCheckAccessOptionPrompt")
}

/// `VSAccountManagerDelegate` (not actor-isolated: an Objective-C protocol without annotations).
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
public protocol VSAccountManagerDelegate: NSObjectProtocol {
    /// `accountManager(_:present:)`.
    func accountManager(_ accountManager: VSAccountManager, present viewController: UIViewController)
    /// `accountManager(_:dismiss:)`.
    func accountManager(_ accountManager: VSAccountManager, dismiss viewController: UIViewController)
}

/// `VSAccountManagerResult`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
open class VSAccountManagerResult: NSObject {
    /// `cancel()`.
    open func cancel() { fatalError("stand-in") }
}

/// `VSAccountMetadata`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
open class VSAccountMetadata: NSObject {
    /// `accountProviderIdentifier`.
    open var accountProviderIdentifier: String? { fatalError("stand-in") }
    /// `authenticationExpirationDate`.
    open var authenticationExpirationDate: Date? { fatalError("stand-in") }
    /// `verificationData`.
    open var verificationData: Data? { fatalError("stand-in") }
    /// `samlAttributeQueryResponse`.
    open var samlAttributeQueryResponse: String? { fatalError("stand-in") }
}

/// `VSAccountMetadataRequest`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
open class VSAccountMetadataRequest: NSObject {
    public override init() {}
    /// `channelIdentifier`.
    open var channelIdentifier: String?
    /// `supportedAccountProviderIdentifiers`.
    open var supportedAccountProviderIdentifiers: [String] = []
    /// `featuredAccountProviderIdentifiers` (iOS 11).
    @available(iOS 11.0, tvOS 11.0, *)
    open var featuredAccountProviderIdentifiers: [String] = []
    /// `verificationToken`.
    open var verificationToken: String?
    /// `includeAccountProviderIdentifier`.
    open var includeAccountProviderIdentifier: Bool = false
    /// `includeAuthenticationExpirationDate`.
    open var includeAuthenticationExpirationDate: Bool = false
    /// `localizedVideoTitle`.
    open var localizedVideoTitle: String?
    /// `isInterruptionAllowed`.
    open var isInterruptionAllowed: Bool = false
    /// `forceAuthentication`.
    open var forceAuthentication: Bool = false
    /// `attributeNames`.
    open var attributeNames: [String] = []
}

/// `VSAccountManager`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
open class VSAccountManager: NSObject {
    public override init() {}
    /// `delegate`.
    weak open var delegate: (any VSAccountManagerDelegate)?
    /// `checkAccessStatus(options:completionHandler:)`: the handler may be called on any queue.
    open func checkAccessStatus(
        options: [VSCheckAccessOption: Any] = [:],
        completionHandler: @escaping @Sendable (VSAccountAccessStatus, (any Error)?) -> Void
    ) { fatalError("stand-in") }
    /// `enqueue(_:completionHandler:)`: the handler may be called on any queue.
    open func enqueue(
        _ accountMetadataRequest: VSAccountMetadataRequest,
        completionHandler: @escaping @Sendable (VSAccountMetadata?, (any Error)?) -> Void
    ) -> VSAccountManagerResult { fatalError("stand-in") }
}

/// `VSErrorInfoKeyUnsupportedProviderIdentifier`.
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
public let VSErrorInfoKeyUnsupportedProviderIdentifier: String = "VSErrorInfoKeyUnsupportedProviderIdentifier"

/// `VSError` (the Swift face of the `VSErrorDomain` NSError codes).
@available(iOS 10.0, tvOS 10.0, *) @available(macCatalyst, unavailable)
public struct VSError: CustomNSError, Hashable, Error {
    /// `VSError.Code`.
    public enum Code: Int, @unchecked Sendable, Equatable {
        case accessNotGranted = 0, unsupportedProvider = 1, userCancelled = 2, serviceTemporarilyUnavailable = 3
        case providerRejected = 4, invalidVerificationToken = 5, rejected = 6, unsupported = 7
    }
    /// `errorDomain`.
    public static var errorDomain: String { "VSErrorDomain" }
    /// `code`.
    public var code: Code { fatalError("stand-in") }
    /// `errorCode`.
    public var errorCode: Int { code.rawValue }
    /// `errorUserInfo`.
    public var errorUserInfo: [String: Any] { fatalError("stand-in") }
    public static func == (lhs: VSError, rhs: VSError) -> Bool { fatalError("stand-in") }
    public func hash(into hasher: inout Hasher) { fatalError("stand-in") }
}
