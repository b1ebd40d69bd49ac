import EntitleCore

/// The answer of a metadata query.
public struct MetadataResult: Sendable, Equatable {
    /// The value (a string for TTLs and the device id), or nil when unavailable.
    public var value: JSONValue?
    /// Whether the value is encrypted for the programmer (decrypt with ``UserMetadataDecryptor``).
    public var encrypted: Bool
    /// Creates a result.
    public init(value: JSONValue?, encrypted: Bool) {
        self.value = value
        self.encrypted = encrypted
    }
}
