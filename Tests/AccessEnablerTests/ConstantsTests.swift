import Foundation
import Testing
@testable import AccessEnabler

@Suite struct ConstantsTests {
    @Test func valuesOfTheProtocolNotes() {
        #expect(ACCESS_ENABLER_STATUS_SUCCESS == 1)
        #expect(ACCESS_ENABLER_STATUS_ERROR == 0)
        #expect(USER_AUTHENTICATED == "")
        #expect(USER_NOT_AUTHENTICATED_ERROR == "User Not Authenticated Error")
        #expect(PROVIDER_NOT_SELECTED_ERROR == "Provider not Selected Error")
        #expect(PROVIDER_NOT_AVAILABLE_ERROR == "Provider not Available Error")
        #expect(GENERIC_AUTHENTICATION_ERROR == "Generic Authentication Error")
        #expect(INTERNAL_AUTHENTICATION_ERROR == "Internal Authentication Error")
        #expect(USER_NOT_AUTHORIZED_ERROR == "User not Authorized Error")
        #expect(GENERIC_AUTHORIZATION_ERROR == "Generic Authorization Error")
        #expect(INTERNAL_AUTHORIZATION_ERROR == "Internal Authorization Error")
        #expect(INTERNAL_ERROR == "Internal Error")
        #expect(ADOBEPASS_REDIRECT_URL == "adobepass://ios.app")
        #expect([METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID, METADATA_USER_META] == [0, 1, 2, 3])
        #expect(METADATA_RESOURCE_ID_KEY == "resource_id")
        #expect(METADATA_USER_META_KEY == "user_metadata_name")
        #expect([TRACKING_AUTHENTICATION, TRACKING_AUTHORIZATION, TRACKING_GET_SELECTED_PROVIDER] == [0, 1, 2])
    }

    @Test func statusDictionaryHasTheDocumentedKeys() {
        let status = AccessEnablerStatus(errorID: "REGCODE", level: "success", message: "AB12CD", extras: ["code": "AB12CD"])
        #expect(status.dictionary == ["errorId": "REGCODE", "level": "success", "message": "AB12CD", "code": "AB12CD"])
        #expect(AccessEnablerStatus(errorID: "REGCODE", level: .success, message: "AB12CD", extras: ["code": "AB12CD"]) == status)
        #expect(status.knownLevel == .success)
        #expect(AccessEnablerStatus(errorID: "X", level: "custom", message: "").knownLevel == nil)
    }

    @Test func statusLevelsAreTheDocumentedStrings() {
        #expect(AccessEnablerStatus.Level.allCases.map(\.rawValue) == ["error", "warning", "info", "success"])
        #expect(AccessEnablerStatus.callbackNotImplemented("navigate(toUrl:useSVC:)").level == "warning")
        #expect(AccessEnablerStatus.callbackNotImplemented("setToken(_:forResource:)").level == "error")
    }

    @Test func serviceProviderStringsBecomeBaseURLs() {
        #expect(AccessEnabler.normalizedServiceURL("sp.example.com/adobe-services")?.absoluteString == "https://sp.example.com")
        #expect(AccessEnabler.normalizedServiceURL("http://127.0.0.1:8080/")?.absoluteString == "http://127.0.0.1:8080")
        #expect(AccessEnabler.normalizedServiceURL("http://h/base/?q=1")?.absoluteString == "http://h/base")
        #expect(AccessEnabler.normalizedServiceURL("") == nil)
    }

    @Test func mvpdModelComesFromConfiguration() {
        let mvpd = MVPD(
            configuration: .init(
                id: "DemoSSO", displayName: "Demo SSO TV", logoUrl: "http://l", enablePlatformServices: true,
                boardingStatus: "SUPPORTED"))
        #expect(mvpd.ID == "DemoSSO" && mvpd.id == "DemoSSO")
        #expect(mvpd.displayName == "Demo SSO TV" && mvpd.logoURL == "http://l")
        #expect(mvpd.enablePlatformServices && mvpd.boardingStatus == "SUPPORTED")
    }
}
