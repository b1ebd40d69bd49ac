import HTTPTypes
import Testing

@testable import EntitleServer

/// `combinedValue` answers as the fields' own subscript does: nil, the one value, or several joined.
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
}
