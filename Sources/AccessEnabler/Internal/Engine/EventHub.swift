import Foundation

/// The single event source: every event goes through ``emit(_:)`` and reaches, on the callback executor and in
/// order, the delegate, the status delegate, the closure observers and the async streams.
final class EventHub: Sendable {
    /// The app's delegates, held weakly. They are app objects (Adobe's protocols are not `Sendable`); the hub reads
    /// and writes the references under its lock and calls the objects only on the callback executor, one job at a
    /// time — the contract Adobe's SDK has with the main thread.
    private struct WeakDelegate: @unchecked Sendable { weak var value: (any EntitlementDelegate)? }
    private struct WeakStatusDelegate: @unchecked Sendable { weak var value: (any EntitlementStatus)? }

    private struct Sinks: Sendable {
        var delegate = WeakDelegate()
        var statusDelegate = WeakStatusDelegate()
        var observers: [UUID: @Sendable (AccessEnablerEvent) -> Void] = [:]
        var streams: [UUID: AsyncStream<AccessEnablerEvent>.Continuation] = [:]
    }

    private let sinks = Locked(Sinks())
    let executor: any CallbackExecutor

    init(executor: any CallbackExecutor) { self.executor = executor }

    var delegate: (any EntitlementDelegate)? {
        get { sinks.withLock { $0.delegate }.value }
        set {
            let reference = WeakDelegate(value: newValue)
            sinks.withLock { $0.delegate = reference }
        }
    }

    var statusDelegate: (any EntitlementStatus)? {
        get { sinks.withLock { $0.statusDelegate }.value }
        set {
            let reference = WeakStatusDelegate(value: newValue)
            sinks.withLock { $0.statusDelegate = reference }
        }
    }

    func observe(_ handler: @escaping @Sendable (AccessEnablerEvent) -> Void) -> ObservationToken {
        let id = UUID()
        sinks.withLock { $0.observers[id] = handler }
        return ObservationToken { [weak self] in self?.sinks.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    func stream() -> AsyncStream<AccessEnablerEvent> {
        let (stream, continuation) = AsyncStream<AccessEnablerEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        sinks.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.sinks.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Returns once every event emitted before the call has reached the delegates, observers and streams (the
    /// executor runs jobs in order, so a job enqueued now runs after them).
    func delivered() async {
        await withCheckedContinuation { continuation in executor.enqueue { continuation.resume() } }
    }

    /// Delivers `events` in order.
    func emit(_ events: [AccessEnablerEvent]) {
        guard !events.isEmpty else { return }
        executor.enqueue { [self] in
            let current = sinks.withLock { $0 }
            for event in events {
                var missing: [String] = []
                if let delegate = current.delegate.value { missing = Self.deliver(event, to: delegate) }
                if case .status(let status) = event { current.statusDelegate.value?.status(SendableValues.objectDictionary(status.dictionary)) }
                for observer in current.observers.values { observer(event) }
                for continuation in current.streams.values { continuation.yield(event) }
                for name in missing {
                    let report = AccessEnablerStatus.callbackNotImplemented(name)
                    let status = AccessEnablerEvent.status(report)
                    current.statusDelegate.value?.status(SendableValues.objectDictionary(report.dictionary))
                    for observer in current.observers.values { observer(status) }
                    for continuation in current.streams.values { continuation.yield(status) }
                }
            }
        }
    }

    func emit(_ event: AccessEnablerEvent) { emit([event]) }

    /// Ends every stream (the enabler is going away).
    func finish() {
        let streams = sinks.withLock { sinks -> [AsyncStream<AccessEnablerEvent>.Continuation] in
            let values = Array(sinks.streams.values)
            sinks.streams = [:]
            return values
        }
        for continuation in streams { continuation.finish() }
    }

    /// Calls the delegate's callback for `event`; returns the optional callbacks that fell through to their default
    /// implementation (the delegate does not implement them with Adobe's signature).
    private static func deliver(_ event: AccessEnablerEvent, to delegate: any EntitlementDelegate) -> [String] {
        let missing = MissingCallbacks()
        MissingCallbacks.$current.withValue(missing) {
            switch event {
            case .setRequestorComplete(let status): delegate.setRequestorComplete(status)
            case .setAuthenticationStatus(let status, let code): delegate.setAuthenticationStatus(status, errorCode: code)
            case .displayProviderDialog(let mvpds): delegate.displayProviderDialog(mvpds)
            case .navigate(let url, let useSVC):
                if useSVC { delegate.navigate(toUrl: url, useSVC: true) } else { delegate.navigate(toUrl: url) }
            case .setToken(let token, let resource): delegate.setToken(token, forResource: resource)
            case .tokenRequestFailed(let resource, let code, let description):
                delegate.tokenRequestFailed(resource, errorCode: code, errorDescription: description)
            case .preauthorizedResources(let resources): delegate.preauthorizedResources(resources)
            case .selectedProvider(let mvpd): delegate.selectedProvider(mvpd)
            case .setMetadataStatus(let metadata, let encrypted, let key, let arguments):
                delegate.setMetadataStatus(
                    metadata.map(SendableValues.object), encrypted: encrypted, forKey: key,
                    andArguments: SendableValues.objectDictionary(arguments))
            case .sendTrackingData(let data, let eventType): delegate.sendTrackingData(data, forEventType: eventType)
            case .presentTvProviderDialog(let dialog): delegate.presentTvProviderDialog(dialog)
            case .dismissTvProviderDialog(let dialog): delegate.dismissTvProviderDialog(dialog)
            case .status: break
            }
        }
        return missing.recorded
    }
}
