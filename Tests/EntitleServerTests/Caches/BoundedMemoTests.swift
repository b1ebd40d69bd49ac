import EntitleCore
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// The bounded memo under the service's caches (session GUIDs, decoded headers, profiles in wire form, report series).
@Suite struct BoundedMemoTests {
    @Test func aValueIsMadeOnceAndKept() {
        let memo = BoundedMemo<String, Int>(capacity: 4)
        var made = 0
        for _ in 0..<3 {
            #expect(
                memo.value(for: "a") {
                    made += 1; return 7
                } == 7)
        }
        #expect(made == 1)
        #expect(memo.value(for: "a") == 7)
        #expect(memo.value(for: "b") == nil)
    }

    @Test func aFailureIsRethrownAndKeepsNothing() throws {
        let memo = BoundedMemo<String, Int>(capacity: 4)
        let error = #expect(throws: EnhancedError.self) {
            try memo.value(for: "a") { () throws(EnhancedError) -> Int in throw EnhancedError.invalidMVPD }
        }
        #expect(error?.code == .invalidParameterMVPD)
        #expect(memo.count == 0)
        #expect(try memo.value(for: "a") { () throws(EnhancedError) -> Int in 1 } == 1)
    }

    @Test func pastItsCapacityEverythingIsDroppedButReplacingAKeptKeyDropsNothing() {
        let memo = BoundedMemo<Int, String>(capacity: 2)
        memo.keep("one", for: 1)
        memo.keep("two", for: 2)
        memo.keep("deux", for: 2)
        #expect(memo.count == 2 && memo.value(for: 1) == "one" && memo.value(for: 2) == "deux")
        memo.keep("three", for: 3)
        #expect(memo.count == 1)
        #expect(memo.value(for: 1) == nil && memo.value(for: 3) == "three")
    }
}
