/// Cancels a closure observation when ``cancel()`` is called.
public final class ObservationToken: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Locked(onCancel) }

    /// Stops the observation; later calls do nothing.
    public func cancel() {
        let action = onCancel.withLock { value -> (@Sendable () -> Void)? in
            let action = value
            value = nil
            return action
        }
        action?()
    }
}
