/**
 * Process-wide primitives every other package may use: time and delayed execution
 * ({@link dev.agentd.server.runtime.Scheduler}) and cooperative cancellation
 * ({@link dev.agentd.server.runtime.CancellationToken}). Imports nothing from agentd.
 */
package dev.agentd.server.runtime;
