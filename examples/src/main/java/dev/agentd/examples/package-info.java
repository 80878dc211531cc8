/**
 * Runnable programs an integrator can copy; they use {@code dev.agentd.client} only.
 * {@link dev.agentd.examples.AskOnce}: spawn the daemon, send one prompt, stream the answer.
 * {@link dev.agentd.examples.chat.ConsoleChat}: an interactive chat with the retry experience.
 * The shell and Python examples live beside this module (see {@code examples/README.md}).
 */
package dev.agentd.examples;
