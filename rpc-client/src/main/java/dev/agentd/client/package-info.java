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
 */
package dev.agentd.client;
