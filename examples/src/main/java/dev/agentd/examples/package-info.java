/**
 * Runnable programs an integrator can copy; they use {@code dev.agentd.client} only.
 * {@link dev.agentd.examples.AskOnce}: spawn the daemon, send one prompt, stream the answer.
 */
package dev.agentd.examples;
