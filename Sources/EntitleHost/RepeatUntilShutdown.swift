import ServiceLifecycle

/// Runs `work` every `interval` until the service group shuts down gracefully (or the task is cancelled); a sleep cut
/// short by the shutdown ends the loop without running `work` again.
func repeatUntilShutdown(every interval: Duration, _ work: @escaping @Sendable () async -> Void) async {
    await cancelWhenGracefulShutdown {
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            await work()
        }
    }
}
