import EntitleHost

/// The tests run the real service through the same harness as `entitle bench`.
typealias TestHost = LocalService
