import HTTPTypes
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// `combinedValue` answers as the fields' own subscript does: nil, the one value, or several joined; `combinedValues`
/// answers for three names as `combinedValue` does for each.
@Suite struct HTTPFieldsCombinedValueTests {
    @Test func itAnswersAsTheSubscript() {
        var fields = HTTPFields()
        #expect(fields.combinedValue(.authorization) == nil)
        fields[.authorization] = "Bearer a"
        fields.append(HTTPField(name: .contentType, value: "application/json"))
        #expect(fields.combinedValue(.authorization) == "Bearer a")
        fields.append(HTTPField(name: .authorization, value: "Bearer b"))
        #expect(fields.combinedValue(.authorization) == fields[.authorization])
        #expect(fields.combinedValue(.authorization) == "Bearer a, Bearer b")
        #expect(fields.combinedValue(.contentType) == "application/json")
    }

    @Test func threeHeadersReadInOnePassAsEachIsReadAlone() {
        let cases: [HTTPFields] = [
            [.authorization: "Bearer a", .deviceIdentifier: "fingerprint x", .deviceInfo: "e30="],
            [.deviceInfo: "e30=", .authorization: "Bearer a"],
            [.accept: "*/*"],
            [:],
            HTTPFields([
                HTTPField(name: .authorization, value: "Bearer a"), HTTPField(name: .deviceInfo, value: "one"),
                HTTPField(name: .deviceInfo, value: "two"),
            ]),
        ]
        for fields in cases {
            let (authorization, deviceIdentifier, deviceInfo) = fields.combinedValues(.authorization, .deviceIdentifier, .deviceInfo)
            #expect(authorization == fields.combinedValue(.authorization))
            #expect(deviceIdentifier == fields.combinedValue(.deviceIdentifier))
            #expect(deviceInfo == fields[.deviceInfo], "\(fields)")
        }
    }
}
