import EntitleCore

/// Everything the engine reports, in order. The same events feed the delegate, the status delegate, closure
/// observers and ``AccessEnabler/events``.
public enum AccessEnablerEvent: Sendable {
    /// `setRequestorComplete(_:)`.
    case setRequestorComplete(status: Int32)
    /// `setAuthenticationStatus(_:errorCode:)`.
    case setAuthenticationStatus(status: Int32, errorCode: String)
    /// `displayProviderDialog(_:)`.
    case displayProviderDialog(mvpds: [MVPD])
    /// `navigate(toUrl:)`, or `navigate(toUrl:useSVC:)` when `useSVC` is true.
    case navigate(url: String, useSVC: Bool)
    /// `setToken(_:forResource:)`.
    case setToken(token: String, resource: String)
    /// `tokenRequestFailed(_:errorCode:errorDescription:)`.
    case tokenRequestFailed(resource: String, errorCode: String, errorDescription: String)
    /// `preauthorizedResources(_:)`.
    case preauthorizedResources(resources: [String])
    /// `selectedProvider(_:)`.
    case selectedProvider(mvpd: MVPD?)
    /// `setMetadataStatus(_:encrypted:forKey:andArguments:)`.
    case setMetadataStatus(metadata: JSONValue?, encrypted: Bool, key: Int32, arguments: [String: any Sendable])
    /// `sendTrackingData(_:forEventType:)`.
    case sendTrackingData(data: [String], eventType: Int32)
    /// `status(_:)` of ``EntitlementStatus``.
    case status(AccessEnablerStatus)
    /// `presentTvProviderDialog(_:)`: show the platform's TV-provider picker.
    case presentTvProviderDialog(TVProviderDialog)
    /// `dismissTvProviderDialog(_:)`: hide it.
    case dismissTvProviderDialog(TVProviderDialog)

    /// A short name of the callback, for logs and tests (`setToken`, `status:Z100`, …).
    public var name: String {
        switch self {
        case .setRequestorComplete: "setRequestorComplete"
        case .setAuthenticationStatus: "setAuthenticationStatus"
        case .displayProviderDialog: "displayProviderDialog"
        case .navigate(_, let useSVC): useSVC ? "navigateUseSVC" : "navigate"
        case .setToken: "setToken"
        case .tokenRequestFailed: "tokenRequestFailed"
        case .preauthorizedResources: "preauthorizedResources"
        case .selectedProvider: "selectedProvider"
        case .setMetadataStatus: "setMetadataStatus"
        case .sendTrackingData: "sendTrackingData"
        case .status(let status): "status:" + status.errorID
        case .presentTvProviderDialog: "presentTvProviderDialog"
        case .dismissTvProviderDialog: "dismissTvProviderDialog"
        }
    }
}
