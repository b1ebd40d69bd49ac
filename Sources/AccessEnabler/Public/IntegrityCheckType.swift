/// What the SDK does with its stored data when it starts (`initWithStorageCheck:` of SDK 3.8.3+).
public struct IntegrityCheckType: Sendable, Hashable {
    /// The raw value.
    public let rawValue: Int
    /// Creates a check type.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Read stored data without verifying its checksum.
    public static let INTEGRITY_CHECK_NONE = IntegrityCheckType(rawValue: 0)
    /// Verify every stored entry's SHA-256 checksum on read; a damaged entry is deleted and treated as absent.
    public static let INTEGRITY_CHECK_ALL = IntegrityCheckType(rawValue: 1)
    /// Delete everything the SDK stored before, then work as ``INTEGRITY_CHECK_ALL``.
    public static let INTEGRITY_CHECK_CLEAR = IntegrityCheckType(rawValue: 2)
}
