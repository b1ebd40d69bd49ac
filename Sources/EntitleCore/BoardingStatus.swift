/// How an MVPD is boarded for the platform's single sign-on (Apple's VideoSubscriberAccount): the `boardingStatus` of
/// the configuration. The wire and the SDK's `MVPD.boardingStatus` keep it as text (Adobe's type); code compares with
/// these constants.
///
/// An ``OpenCode``: a status a newer service sends is carried through and matches no constant.
public struct BoardingStatus: OpenCode {
    /// The status as sent.
    public let rawValue: String
    /// Creates a status from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Single sign-on through the platform: the platform shows the MVPD's login and hands over a SAML response.
    public static let supported = BoardingStatus(rawValue: "SUPPORTED")
    /// Listed in the platform's picker only: the login is the service's own web flow.
    public static let picker = BoardingStatus(rawValue: "PICKER")
}
