/**
 * Process-wide primitives every other package may use: time and delayed execution
 * ({@link dev.agentd.server.runtime.Scheduler}) and cooperative cancellation
 * ({@link dev.agentd.server.runtime.CancellationToken}), text helpers for messages a
 * user reads: {@link dev.agentd.server.runtime.Suggest} ("did you mean", bounded edit distance),
 * {@link dev.agentd.server.runtime.JsonProblems} (a parse failure as file:line:column) and
 * {@link dev.agentd.server.runtime.LogText} (file text quoted in a warning: escaped, cut, capped),
 * {@link dev.agentd.server.runtime.KnownSecrets}, the process's secret values for redaction, and
 * {@link dev.agentd.server.runtime.OutputBackpressure}, the gauge by which stdout's queue tells the
 * stream watchdogs that the run thread is waiting for the client, not for the provider.
 * {@link dev.agentd.server.runtime.ProviderVariables} and {@link dev.agentd.server.runtime.GcloudFiles}
 * say where credentials live, for both {@code auth} and the providers.
 * May import {@code protocol} (its line helper, shared with the codec).
 *
 * <p><b>Clocks.</b> Durations, deadlines and intervals use {@code Scheduler.monotonicMs()};
 * {@code Scheduler.now()} (wall clock) is only for timestamps that leave the process. A value that
 * another process reads (a shared file) must be epoch milliseconds, since a monotonic reading
 * means nothing outside the process that took it.
 *
 * <p><b>Scheduled tasks do not block.</b> Every timer of the daemon (retry wake-ups, stream
 * watchdogs, faux pacing, cancellable sleeps) shares one scheduler, so a task only flips state,
 * counts down a latch, closes a stream, or hands work to the thread that owns it (the run thread
 * continues a retried run). Provider calls, file or stdout I/O and waits for a lock that a run may
 * hold across I/O never happen in a task: they run on their own executor. As a safety net the
 * real scheduler's timing thread never runs tasks itself, it hands each due task to a worker, so
 * a task that does block (a run holding its lock while stdout is full) cannot delay the others.
 */
package dev.agentd.server.runtime;
