// The constants of the iOS AccessEnabler headers, with the values of the protocol notes §7.3.
// They are global `let`s, as the Objective-C headers define them, so that code written against Adobe's SDK compiles.

/// `setRequestorComplete` / `setAuthenticationStatus` status: the operation succeeded.
public let ACCESS_ENABLER_STATUS_SUCCESS: Int32 = 1
/// `setRequestorComplete` / `setAuthenticationStatus` status: the operation failed.
public let ACCESS_ENABLER_STATUS_ERROR: Int32 = 0

/// Error code of a successful authentication: the empty string.
public let USER_AUTHENTICATED = ""
/// The user has no valid authentication.
public let USER_NOT_AUTHENTICATED_ERROR = "User Not Authenticated Error"
/// The user cancelled the MVPD selection (`setSelectedProvider(nil)`).
public let PROVIDER_NOT_SELECTED_ERROR = "Provider not Selected Error"
/// No MVPD is available for this requestor.
public let PROVIDER_NOT_AVAILABLE_ERROR = "Provider not Available Error"
/// Authentication failed (network, cancelled login, expired code…); a `status` callback gives the precise reason.
public let GENERIC_AUTHENTICATION_ERROR = "Generic Authentication Error"
/// Authentication failed because of an internal error.
public let INTERNAL_AUTHENTICATION_ERROR = "Internal Authentication Error"
/// The MVPD did not authorize the user for the resource; the description carries the MVPD's message.
public let USER_NOT_AUTHORIZED_ERROR = "User not Authorized Error"
/// Authorization failed for a reason other than a denial (network, server).
public let GENERIC_AUTHORIZATION_ERROR = "Generic Authorization Error"
/// Authorization failed because of an internal error.
public let INTERNAL_AUTHORIZATION_ERROR = "Internal Authorization Error"
/// An internal error.
public let INTERNAL_ERROR = "Internal Error"

/// The URL the login and logout pages end on for web views: `adobepass://ios.app`.
public let ADOBEPASS_REDIRECT_URL = "adobepass://ios.app"

/// `getMetadata` dictionary key whose value is one of the `METADATA_*` opcodes.
public let METADATA_OPCODE_KEY = "opCode"
/// `getMetadata` dictionary key for the resource id of a `METADATA_AUTHORIZATION` query.
public let METADATA_RESOURCE_ID_KEY = "resource_id"
/// `getMetadata` dictionary key for the name of a `METADATA_USER_META` query.
public let METADATA_USER_META_KEY = "user_metadata_name"

/// Metadata opcode: authentication expiry (epoch milliseconds, as a string).
public let METADATA_AUTHENTICATION: Int32 = 0
/// Metadata opcode: authorization expiry of a resource (epoch milliseconds, as a string).
public let METADATA_AUTHORIZATION: Int32 = 1
/// Metadata opcode: the device id.
public let METADATA_DEVICE_ID: Int32 = 2
/// Metadata opcode: a user metadata value (`zip`, `householdID`, `maxRating`, `userID`, `channelID`, …).
public let METADATA_USER_META: Int32 = 3
/// Metadata opcode given back for a request without a valid opcode.
public let METADATA_INVALID: Int32 = 255

/// Tracking event: an authentication check happened (`authenticationDetection`).
public let TRACKING_AUTHENTICATION: Int32 = 0
/// Tracking event: an authorization request returned (`authorizationDetection`).
public let TRACKING_AUTHORIZATION: Int32 = 1
/// Tracking event: the user selected an MVPD (`mvpdSelection`).
public let TRACKING_GET_SELECTED_PROVIDER: Int32 = 2

/// `getAuthentication(filter:)` key: MVPD ids to show in the platform picker.
public let TV_PROVIDERS = "TV_PROVIDERS"
/// `getAuthentication(filter:)` key: MVPD ids to feature in the platform picker.
public let FEATURED_TV_PROVIDERS = "FEATURED_TV_PROVIDERS"

/// `setOptions` key: application profile, sent as `AP-Application-Profile`.
public let OPTION_APPLICATION_PROFILE = "applicationProfile"
/// `setOptions` key: Experience Cloud visitor id, sent as `AP-Visitor-Identifier`.
public let OPTION_VISITOR_ID = "visitorID"
/// `setOptions` key: `true` when the app presents SFSafariViewController itself (`navigate(toUrl:useSVC:)`).
public let OPTION_HANDLE_SVC = "handleSVC"
/// `setOptions` key: Base64 client information that replaces the computed `X-Device-Info` entirely.
public let OPTION_DEVICE_INFO = "device_info"

/// `status` dictionary key: the status id (`CFG400`, `Z100`, `REGCODE`, …).
public let STATUS_ERROR_ID_KEY = "errorId"
/// `status` dictionary key: `error`, `warning`, `info` or `success`.
public let STATUS_LEVEL_KEY = "level"
/// `status` dictionary key: a human-readable message (for `REGCODE`: the registration code).
public let STATUS_MESSAGE_KEY = "message"
/// `status` dictionary key: the resource the status is about.
public let STATUS_RESOURCE_KEY = "resource"
/// `status` dictionary key: extra detail, such as an MVPD's message.
public let STATUS_DETAILS_KEY = "details"
/// `status` dictionary key of `REGCODE`: the registration code.
public let STATUS_REGISTRATION_CODE_KEY = "code"
/// `status` dictionary key of `REGCODE`: the URL where the user enters or completes the code.
public let STATUS_ACTIVATION_URL_KEY = "activationURL"
/// `status` dictionary key of `REGCODE`: the session's own URL (`/api/v2/authenticate/{sp}/{code}` once an MVPD is chosen).
public let STATUS_SESSION_URL_KEY = "sessionURL"
/// `status` dictionary key of `REGCODE`: when the code expires (epoch milliseconds, as a string).
public let STATUS_EXPIRES_KEY = "notAfter"
