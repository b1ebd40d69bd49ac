/// The documented REST API v2 Enhanced Error Codes, with their action and status.
extension EnhancedError {
    private static func none400(_ code: String, _ message: String) -> EnhancedError {
        EnhancedError(action: "none", status: 400, code: code, message: message)
    }

    /// The service provider (requestor) is missing or unknown.
    public static var invalidServiceProvider: EnhancedError { none400("invalid_parameter_service_provider", "The service provider parameter value is missing or invalid.") }
    /// The MVPD is missing, unknown or not integrated with the requestor.
    public static var invalidMVPD: EnhancedError { none400("invalid_parameter_mvpd", "The mvpd parameter value is missing or invalid.") }
    /// The authentication code is missing, unknown or expired.
    public static var invalidCode: EnhancedError { none400("invalid_parameter_code", "The code parameter value is missing or invalid.") }
    /// The resources list is missing or malformed.
    public static var invalidResources: EnhancedError { none400("invalid_parameter_resources", "The resources parameter value is missing or invalid.") }
    /// The redirect URL is not allowed for the client application.
    public static var invalidRedirectURL: EnhancedError { none400("invalid_parameter_redirect_url", "The redirect URL parameter value is missing or invalid.") }
    /// The SAML response is missing or invalid.
    public static var invalidSAMLResponse: EnhancedError { none400("invalid_parameter_saml_response", "The SAML response parameter value is missing or invalid.") }
    /// The `X-Device-Info` header is malformed.
    public static var invalidDeviceInfo: EnhancedError { none400("invalid_header_device_info", "The device information header value is missing or invalid.") }
    /// The `AP-Device-Identifier` header is missing or malformed.
    public static var invalidDeviceIdentifier: EnhancedError { none400("invalid_header_device_identifier", "The device identifier header value is missing or invalid.") }
    /// The `AP-TempPass-Identity` header is malformed.
    public static var invalidTempPassIdentity: EnhancedError { none400("invalid_header_identity_for_temporary_access", "The temporary access identity header value is invalid.") }
    /// The integration between requestor and MVPD is not configured or disabled.
    public static var invalidIntegration: EnhancedError { none400("invalid_integration", "The integration between the service provider and the MVPD is missing or disabled.") }
    /// The authentication session is unknown, expired or already used.
    public static var invalidAuthenticationSession: EnhancedError { none400("invalid_authentication_session", "The authentication session is missing, expired or invalid.") }
    /// A generic malformed request (body, form, JSON) when no more specific code applies.
    public static var invalidRequest: EnhancedError { none400("invalid_request", "The request is malformed.") }

    /// The MVPD denied preauthorization.
    public static var preauthorizationDeniedByMVPD: EnhancedError { EnhancedError(action: "none", status: 403, code: "preauthorization_denied_by_mvpd", message: "The MVPD has returned a deny decision when requesting pre-authorization for the specified resource.") }
    /// The MVPD denied authorization.
    public static var authorizationDeniedByMVPD: EnhancedError { EnhancedError(action: "none", status: 403, code: "authorization_denied_by_mvpd", message: "The MVPD has returned a deny decision when requesting authorization for the specified resource.") }
    /// The MVPD denied authorization because of parental controls.
    public static var authorizationDeniedByParentalControls: EnhancedError { EnhancedError(action: "none", status: 403, code: "authorization_denied_by_parental_controls", message: "The MVPD has returned a deny decision due to parental control settings for the specified resource.") }
    /// A degradation rule denies authorization.
    public static var authorizationDeniedByDegradationRule: EnhancedError { EnhancedError(action: "none", status: 403, code: "authorization_denied_by_degradation_rule", message: "The integration has a degradation rule applied that denies authorization.") }
    /// An unexpected failure on the service side.
    public static var internalServerError: EnhancedError { EnhancedError(action: "none", status: 500, code: "internal_server_error", message: "The request could not be processed because of an internal error.") }
    /// The route does not exist.
    public static var notFound: EnhancedError { EnhancedError(action: "none", status: 404, code: "not_found", message: "The requested resource does not exist.") }
    /// The HTTP method is not allowed on the route.
    public static var invalidHTTPMethod: EnhancedError { EnhancedError(action: "none", status: 405, code: "invalid_http_method", message: "The HTTP method is not supported for this endpoint.") }
    /// The body is larger than the service accepts.
    public static var payloadTooLarge: EnhancedError { EnhancedError(action: "none", status: 413, code: "payload_too_large", message: "The request body is too large.") }

    /// More resources than the integration allows in one request.
    public static var tooManyResources: EnhancedError { EnhancedError(action: "configuration", status: 403, code: "too_many_resources", message: "The authorization or pre-authorization request contains too many resources.") }
    /// The programmer's user-metadata certificate is missing or invalid.
    public static var invalidUserMetadataCertificate: EnhancedError { EnhancedError(action: "configuration", status: 500, code: "invalid_configuration_user_metadata_certificate", message: "The user metadata encryption certificate is missing or invalid.") }
    /// The TempPass configuration is invalid.
    public static var invalidTemporaryAccessConfiguration: EnhancedError { EnhancedError(action: "configuration", status: 500, code: "invalid_configuration_temporary_access", message: "The temporary access configuration is invalid.") }

    /// The access token does not belong to the service provider.
    public static var invalidAccessTokenServiceProvider: EnhancedError { EnhancedError(action: "application-registration", status: 401, code: "invalid_access_token_service_provider", message: "The access token is missing, invalid, expired or not issued for this service provider.") }
    /// The access token's client application is unknown, revoked or not allowed.
    public static var invalidAccessTokenClientApplication: EnhancedError { EnhancedError(action: "application-registration", status: 401, code: "invalid_access_token_client_application", message: "The client application is unknown, revoked or not allowed.") }

    /// No authenticated profile for the device, client and MVPD.
    public static var authenticatedProfileMissing: EnhancedError { EnhancedError(action: "authentication", status: 403, code: "authenticated_profile_missing", message: "The authenticated profile is missing.") }
    /// The authenticated profile has expired.
    public static var authenticatedProfileExpired: EnhancedError { EnhancedError(action: "authentication", status: 403, code: "authenticated_profile_expired", message: "The authenticated profile has expired.") }
    /// The authenticated profile was invalidated (for example by logout).
    public static var authenticatedProfileInvalidated: EnhancedError { EnhancedError(action: "authentication", status: 403, code: "authenticated_profile_invalidated", message: "The authenticated profile has been invalidated.") }
    /// The TempPass has run out.
    public static var temporaryAccessDurationLimitExceeded: EnhancedError { EnhancedError(action: "authentication", status: 403, code: "temporary_access_duration_limit_exceeded", message: "The temporary access duration limit has been exceeded.") }
    /// The Promotional TempPass resource allowance is used up.
    public static var temporaryAccessResourcesLimitExceeded: EnhancedError { EnhancedError(action: "authentication", status: 403, code: "temporary_access_resources_limit_exceeded", message: "The temporary access resources limit has been exceeded.") }

    /// The MVPD could not be reached or answered with an error.
    public static var networkReceivedError: EnhancedError { EnhancedError(action: "retry", status: 403, code: "network_received_error", message: "The MVPD answered with an error. Please try again.") }
    /// The MVPD did not answer in time.
    public static var networkConnectionTimeout: EnhancedError { EnhancedError(action: "retry", status: 403, code: "network_connection_timeout", message: "The connection to the MVPD timed out. Please try again.") }
    /// The client exceeded its request rate.
    public static var tooManyRequests: EnhancedError { EnhancedError(action: "retry-after", status: 429, code: "too_many_requests", message: "Too many requests. Retry after the time given in the Retry-After header.") }
}
