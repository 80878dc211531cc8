/**
 * The Java client of agentd (SPEC §9). Imports {@code dev.agentd.protocol.*} and the JDK only.
 *
 * <p>Public: {@link dev.agentd.client.RpcClient} (façade and builder), {@link
 * dev.agentd.client.RpcCommands} (one typed method per command), {@link dev.agentd.client.Dialect}
 * and the exceptions. Internal, one job each: {@code Transport} (process or streams, reader and
 * stderr threads, shutdown; {@code ProcessFamily} for descendants, {@code StderrTail} for the
 * bounded stderr buffer), {@code WireDialect} with {@code PiRpcDialect} and {@code JsonRpcDialect}
 * (record encoding and classification), {@code Dispatcher} (routes records to pending requests,
 * the run tracker and listeners), {@code PendingRequests} (id → future), {@code RunState}/{@code
 * RunTracker} (retry-aware idle tracking behind promptAndWait and waitForIdle).
 *
 * <p>The wire is pi 1.6's: a run is over at its {@code agent_settled} (on which the waits return);
 * {@code prompt}, {@code steer} and {@code followUp} return their disposition; {@code message_update}s
 * are delta-only with the cumulative {@code usage} unless the daemon runs with {@code --updates full}
 * (or {@code setEventOptions} asks for it); every event arrives typed ({@code AgentEvent}), pi 1.6's
 * {@code agent_settled}, {@code bash_execution_update} and {@code summarization_retry_*} included.
 */
package dev.agentd.client;
