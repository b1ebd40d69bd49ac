/// The documented REST API v2 Enhanced Error Codes, with their action and status.
extension EnhancedError {
    private static func none400(_ code: Code, _ message: String) -> EnhancedError {
        EnhancedError(action: .none, status: 400, code: code, message: message)
    }

    /// The service provider (requestor) is missing or unknown.
    public static var invalidServiceProvider: EnhancedError {
        none400(.invalidParameterServiceProvider, "The service provider parameter value is missing or invalid.")
    }
    /// The MVPD is missing, unknown or not integrated with the requestor.
    public static var invalidMVPD: EnhancedError { none400(.invalidParameterMVPD, "The mvpd parameter value is missing or invalid.") }
    /// The authentication code is missing, unknown or expired.
    public static var invalidCode: EnhancedError { none400(.invalidParameterCode, "The code parameter value is missing or invalid.") }
    /// The resources list is missing or malformed.
    public static var invalidResources: EnhancedError { none400(.invalidParameterResources, "The resources parameter value is missing or invalid.") }
    /// The redirect URL is not allowed for the client application.
    public static var invalidRedirectURL: EnhancedError {
        none400(.invalidParameterRedirectURL, "The redirect URL parameter value is missing or invalid.")
    }
    /// The SAML response is missing or invalid.
    public static var invalidSAMLResponse: EnhancedError {
        none400(.invalidParameterSAMLResponse, "The SAML response parameter value is missing or invalid.")
    }
    /// The `X-Device-Info` header is malformed.
    public static var invalidDeviceInfo: EnhancedError {
        none400(.invalidHeaderDeviceInfo, "The device information header value is missing or invalid.")
    }
    /// The `AP-Device-Identifier` header is missing or malformed.
    public static var invalidDeviceIdentifier: EnhancedError {
        none400(.invalidHeaderDeviceIdentifier, "The device identifier header value is missing or invalid.")
    }
    /// The `AP-TempPass-Identity` header is malformed.
    public static var invalidTempPassIdentity: EnhancedError {
        none400(.invalidHeaderIdentityForTemporaryAccess, "The temporary access identity header value is invalid.")
    }
    /// The integration between requestor and MVPD is not configured or disabled.
    public static var invalidIntegration: EnhancedError {
        none400(.invalidIntegration, "The integration between the service provider and the MVPD is missing or disabled.")
    }
    /// The authentication session is unknown, expired or already used.
    public static var invalidAuthenticationSession: EnhancedError {
        none400(.invalidAuthenticationSession, "The authentication session is missing, expired or invalid.")
    }
    /// A generic malformed request (body, form, JSON) when no more specific code applies.
    public static var invalidRequest: EnhancedError { none400(.invalidRequest, "The request is malformed.") }

    /// The MVPD denied preauthorization.
    public static var preauthorizationDeniedByMVPD: EnhancedError {
        EnhancedError(
            action: .none, status: 403, code: .preauthorizationDeniedByMVPD,
            message: "The MVPD has returned a deny decision when requesting pre-authorization for the specified resource.")
    }
    /// The MVPD denied authorization.
    public static var authorizationDeniedByMVPD: EnhancedError {
        EnhancedError(
            action: .none, status: 403, code: .authorizationDeniedByMVPD,
            message: "The MVPD has returned a deny decision when requesting authorization for the specified resource.")
    }
    /// The MVPD denied authorization because of parental controls.
    public static var authorizationDeniedByParentalControls: EnhancedError {
        EnhancedError(
            action: .none, status: 403, code: .authorizationDeniedByParentalControls,
            message: "The MVPD has returned a deny decision due to parental control settings for the specified resource.")
    }
    /// The resource is not for home-based (HBA) sign-ins in this integration, and the profile's sign-in was home-based.
    public static var authorizationDeniedByHBAPolicies: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .authorizationDeniedByHBAPolicies,
            message:
                "The authentication obtained through home-based authentication (HBA) is not allowed for the specified resource: sign in with the TV provider's credentials."
        )
    }
    /// The identity provider ended the sign-in the authorization needs (for example an OAuth 2.0 MVPD revoked it).
    public static var authorizationDeniedBySessionInvalidated: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .authorizationDeniedBySessionInvalidated,
            message: "The authentication session was invalidated by the identity provider. Sign in again with your TV provider.")
    }
    /// A degradation rule denies authorization.
    public static var authorizationDeniedByDegradationRule: EnhancedError {
        EnhancedError(
            action: .none, status: 403, code: .authorizationDeniedByDegradationRule,
            message: "The integration has a degradation rule applied that denies authorization.")
    }
    /// An unexpected failure on the service side.
    public static var internalServerError: EnhancedError {
        EnhancedError(
            action: .none, status: 500, code: .internalServerError, message: "The request could not be processed because of an internal error.")
    }
    /// The route does not exist.
    public static var notFound: EnhancedError {
        EnhancedError(action: .none, status: 404, code: .notFound, message: "The requested resource does not exist.")
    }
    /// The HTTP method is not allowed on the route.
    public static var invalidHTTPMethod: EnhancedError {
        EnhancedError(action: .none, status: 405, code: .invalidHTTPMethod, message: "The HTTP method is not supported for this endpoint.")
    }
    /// The body is larger than the service accepts.
    public static var payloadTooLarge: EnhancedError {
        EnhancedError(action: .none, status: 413, code: .payloadTooLarge, message: "The request body is too large.")
    }

    /// More resources than the integration allows in one request.
    public static var tooManyResources: EnhancedError {
        EnhancedError(
            action: .configuration, status: 403, code: .tooManyResources,
            message: "The authorization or pre-authorization request contains too many resources.")
    }
    /// The programmer's user-metadata certificate is missing or invalid.
    public static var invalidUserMetadataCertificate: EnhancedError {
        EnhancedError(
            action: .configuration, status: 500, code: .invalidConfigurationUserMetadataCertificate,
            message: "The user metadata encryption certificate is missing or invalid.")
    }
    /// The TempPass configuration is invalid.
    public static var invalidTemporaryAccessConfiguration: EnhancedError {
        EnhancedError(
            action: .configuration, status: 500, code: .invalidConfigurationTemporaryAccess, message: "The temporary access configuration is invalid."
        )
    }

    /// The access token does not belong to the service provider.
    public static var invalidAccessTokenServiceProvider: EnhancedError {
        EnhancedError(
            action: .applicationRegistration, status: 401, code: .invalidAccessTokenServiceProvider,
            message: "The access token is missing, invalid, expired or not issued for this service provider.")
    }
    /// The access token's client application is unknown, revoked or not allowed.
    public static var invalidAccessTokenClientApplication: EnhancedError {
        EnhancedError(
            action: .applicationRegistration, status: 401, code: .invalidAccessTokenClientApplication,
            message: "The client application is unknown, revoked or not allowed.")
    }

    /// No authenticated profile for the device, client and MVPD.
    public static var authenticatedProfileMissing: EnhancedError {
        EnhancedError(action: .authentication, status: 403, code: .authenticatedProfileMissing, message: "The authenticated profile is missing.")
    }
    /// The authenticated profile has expired.
    public static var authenticatedProfileExpired: EnhancedError {
        EnhancedError(action: .authentication, status: 403, code: .authenticatedProfileExpired, message: "The authenticated profile has expired.")
    }
    /// The authenticated profile was invalidated (for example by logout).
    public static var authenticatedProfileInvalidated: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .authenticatedProfileInvalidated, message: "The authenticated profile has been invalidated.")
    }
    /// The TempPass has run out.
    public static var temporaryAccessDurationLimitExceeded: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .temporaryAccessDurationLimitExceeded,
            message: "The temporary access duration limit has been exceeded.")
    }
    /// The Promotional TempPass resource allowance is used up.
    public static var temporaryAccessResourcesLimitExceeded: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .temporaryAccessResourcesLimitExceeded,
            message: "The temporary access resources limit has been exceeded.")
    }

    /// The MVPD could not be reached or answered with an error.
    public static var networkReceivedError: EnhancedError {
        EnhancedError(action: .retry, status: 403, code: .networkReceivedError, message: "The MVPD answered with an error. Please try again.")
    }
    /// The MVPD did not answer in time.
    public static var networkConnectionTimeout: EnhancedError {
        EnhancedError(
            action: .retry, status: 403, code: .networkConnectionTimeout, message: "The connection to the MVPD timed out. Please try again.")
    }
    /// The client exceeded its request rate.
    public static var tooManyRequests: EnhancedError {
        EnhancedError(
            action: .retryAfter, status: 429, code: .tooManyRequests,
            message: "Too many requests. Retry after the time given in the Retry-After header.")
    }
}
