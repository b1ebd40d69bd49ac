extension EnhancedError {
    /// An Enhanced Error Code such as `invalid_parameter_mvpd`: the `code` field of an error body.
    ///
    /// An ``OpenCode``: the service, and the MVPDs and legacy protocols behind it, answer codes this version may not
    /// know, and those travel through unchanged. Encoded as the plain code, so the wire form is as before.
    public struct Code: OpenCode {
        /// The code as written on the wire.
        public let rawValue: String
        /// Creates a code from its wire text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from its wire text.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// `invalid_parameter_service_provider`.
        public static let invalidParameterServiceProvider = Code("invalid_parameter_service_provider")
        /// `invalid_parameter_mvpd`.
        public static let invalidParameterMVPD = Code("invalid_parameter_mvpd")
        /// `invalid_parameter_code`.
        public static let invalidParameterCode = Code("invalid_parameter_code")
        /// `invalid_parameter_resources`.
        public static let invalidParameterResources = Code("invalid_parameter_resources")
        /// `invalid_parameter_redirect_url`.
        public static let invalidParameterRedirectURL = Code("invalid_parameter_redirect_url")
        /// `invalid_parameter_saml_response`.
        public static let invalidParameterSAMLResponse = Code("invalid_parameter_saml_response")
        /// `invalid_header_device_info`.
        public static let invalidHeaderDeviceInfo = Code("invalid_header_device_info")
        /// `invalid_header_device_identifier`.
        public static let invalidHeaderDeviceIdentifier = Code("invalid_header_device_identifier")
        /// `invalid_header_identity_for_temporary_access`.
        public static let invalidHeaderIdentityForTemporaryAccess = Code("invalid_header_identity_for_temporary_access")
        /// `invalid_integration`.
        public static let invalidIntegration = Code("invalid_integration")
        /// `invalid_authentication_session`.
        public static let invalidAuthenticationSession = Code("invalid_authentication_session")
        /// `invalid_request`.
        public static let invalidRequest = Code("invalid_request")
        /// `preauthorization_denied_by_mvpd`.
        public static let preauthorizationDeniedByMVPD = Code("preauthorization_denied_by_mvpd")
        /// `authorization_denied_by_mvpd`.
        public static let authorizationDeniedByMVPD = Code("authorization_denied_by_mvpd")
        /// `authorization_denied_by_parental_controls`.
        public static let authorizationDeniedByParentalControls = Code("authorization_denied_by_parental_controls")
        /// `authorization_denied_by_hba_policies`.
        public static let authorizationDeniedByHBAPolicies = Code("authorization_denied_by_hba_policies")
        /// `authorization_denied_by_session_invalidated`.
        public static let authorizationDeniedBySessionInvalidated = Code("authorization_denied_by_session_invalidated")
        /// `authentication_session_invalidated` (REST API v1).
        public static let authenticationSessionInvalidated = Code("authentication_session_invalidated")
        /// `authorization_denied_by_degradation_rule`.
        public static let authorizationDeniedByDegradationRule = Code("authorization_denied_by_degradation_rule")
        /// `internal_server_error`.
        public static let internalServerError = Code("internal_server_error")
        /// `not_found`.
        public static let notFound = Code("not_found")
        /// `invalid_http_method`.
        public static let invalidHTTPMethod = Code("invalid_http_method")
        /// `payload_too_large`.
        public static let payloadTooLarge = Code("payload_too_large")
        /// `too_many_resources`.
        public static let tooManyResources = Code("too_many_resources")
        /// `invalid_configuration_user_metadata_certificate`.
        public static let invalidConfigurationUserMetadataCertificate = Code("invalid_configuration_user_metadata_certificate")
        /// `invalid_configuration_temporary_access`.
        public static let invalidConfigurationTemporaryAccess = Code("invalid_configuration_temporary_access")
        /// `invalid_access_token_service_provider`.
        public static let invalidAccessTokenServiceProvider = Code("invalid_access_token_service_provider")
        /// `invalid_access_token_client_application`.
        public static let invalidAccessTokenClientApplication = Code("invalid_access_token_client_application")
        /// `authenticated_profile_missing`.
        public static let authenticatedProfileMissing = Code("authenticated_profile_missing")
        /// `authenticated_profile_expired`.
        public static let authenticatedProfileExpired = Code("authenticated_profile_expired")
        /// `authenticated_profile_invalidated`.
        public static let authenticatedProfileInvalidated = Code("authenticated_profile_invalidated")
        /// `temporary_access_duration_limit_exceeded`.
        public static let temporaryAccessDurationLimitExceeded = Code("temporary_access_duration_limit_exceeded")
        /// `temporary_access_resources_limit_exceeded`.
        public static let temporaryAccessResourcesLimitExceeded = Code("temporary_access_resources_limit_exceeded")
        /// `network_received_error`.
        public static let networkReceivedError = Code("network_received_error")
        /// `network_connection_timeout`.
        public static let networkConnectionTimeout = Code("network_connection_timeout")
        /// `too_many_requests`.
        public static let tooManyRequests = Code("too_many_requests")
    }
}
