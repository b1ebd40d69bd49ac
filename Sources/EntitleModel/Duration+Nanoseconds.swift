extension Duration {
    /// The duration in whole nanoseconds.
    package var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
