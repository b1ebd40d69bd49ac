extension EnhancedError.Code {
    /// `identity_not_recognized_by_mvpd`.
    public static let identityNotRecognizedByMVPD = EnhancedError.Code("identity_not_recognized_by_mvpd")
    /// `maximum_execution_time_exceeded`.
    public static let maximumExecutionTimeExceeded = EnhancedError.Code("maximum_execution_time_exceeded")
    /// `invalid_configuration_mvpd_platform`.
    public static let invalidConfigurationMVPDPlatform = EnhancedError.Code("invalid_configuration_mvpd_platform")
    /// `invalid_configuration_mvpd_platform_boarding_status`.
    public static let invalidConfigurationMVPDPlatformBoardingStatus = EnhancedError.Code("invalid_configuration_mvpd_platform_boarding_status")
}

extension EnhancedError {
    /// The MVPD does not know the user the profile names (its authorization endpoint said so).
    public static var identityNotRecognizedByMVPD: EnhancedError {
        EnhancedError(
            action: .authentication, status: 403, code: .identityNotRecognizedByMVPD,
            message: "The TV provider does not recognize the user's identity: sign in again.")
    }
    /// The MVPD accepted the call but did not answer within the time allowed for it.
    public static var maximumExecutionTimeExceeded: EnhancedError {
        EnhancedError(
            action: .retry, status: 403, code: .maximumExecutionTimeExceeded,
            message: "The request did not complete in the maximum allowed time.")
    }
    /// The platform named an MVPD integrated with the service provider, but that integration is not configured for
    /// platform single sign-on. Adobe documents 500; Entitle answers 400: nothing failed in the service.
    public static var invalidConfigurationMVPDPlatform: EnhancedError {
        EnhancedError(
            action: .configuration, status: 400, code: .invalidConfigurationMVPDPlatform,
            message: "The MVPD is not configured for platform single sign-on with this service provider.")
    }
    /// The MVPD's platform boarding status does not allow the flow asked for (partner SSO needs `SUPPORTED`).
    public static var invalidConfigurationMVPDPlatformBoardingStatus: EnhancedError {
        EnhancedError(
            action: .configuration, status: 400, code: .invalidConfigurationMVPDPlatformBoardingStatus,
            message: "The MVPD's platform boarding status does not allow single sign-on through the platform.")
    }
}
