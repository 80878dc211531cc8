/**
 * The console chat example ({@link dev.agentd.examples.chat.ConsoleChat}) and the pieces an
 * integrator can reuse: {@link dev.agentd.examples.chat.ChatController} turns events and keys into
 * output and commands, and implements the retry experience of SPEC §9 (live countdown, Esc cancels
 * the retry, the previous Esc action restored after {@code auto_retry_end}, the final failure
 * line); it talks to a {@link dev.agentd.examples.chat.Terminal}, a
 * {@link dev.agentd.examples.chat.ChatAgent} and a {@link dev.agentd.examples.chat.Scheduler}, so
 * tests drive it with fakes. The console side ({@code ConsoleTerminal}, {@code ConsoleInput},
 * {@code TtyMode}) is kept thin.
 */
package dev.agentd.examples.chat;
