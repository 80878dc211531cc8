package dev.agentd.examples.chat;

import dev.agentd.client.RpcException;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The console chat's presenter: turns the user's lines and keys into commands and the daemon's
 * events into terminal output. It implements the retry experience of SPEC §9: while a retry waits
 * the status line counts down and Esc cancels the retry; after {@code auto_retry_end} the previous
 * Esc action is back and the status is cleared; a chain that fails ends with
 * {@code Retry failed after N attempts: <finalError>}.
 *
 * <p>Events arrive on the client's reader thread, lines and keys on the input thread, ticks on the
 * timer thread; every entry point is synchronized. Commands are sent asynchronously and key actions
 * run outside this lock, so nothing here ever waits for the daemon.
 */
public final class ChatController {
    private final Terminal terminal;
    private final ChatAgent agent;
    private final RetryCountdown countdown;
    private final Runnable abortRun = this::abortRun;
    private final Runnable abortRetry = this::abortRetry;

    // The client's view of the agent: busy while any of these holds.
    private boolean awaitingRun; // a prompt was sent, or an agent_end said another run follows
    private boolean running; // between agent_start and agent_end
    private boolean retrying; // between auto_retry_start and auto_retry_end

    private Runnable escapeBeforeRetry; // the Esc action to restore after the retry chain
    private String lastError; // errorMessage of the last failed reply of the current run

    public ChatController(Terminal terminal, ChatAgent agent, Scheduler scheduler) {
        this.terminal = terminal;
        this.agent = agent;
        this.countdown = new RetryCountdown(scheduler, terminal::status);
    }

    /** Installs the idle key bindings: Esc aborts the running prompt. */
    public synchronized void start() {
        terminal.bind(Key.ESCAPE, abortRun);
    }

    /** Stops the countdown timer (the program is ending). */
    public synchronized void close() {
        countdown.stop();
    }

    /** True while a run, a retry wait or an announced continuation is in progress. */
    public synchronized boolean busy() {
        return awaitingRun || running || retrying;
    }

    // --- user input --------------------------------------------------------------------------

    /** A line the user submitted: a prompt when idle, a follow-up while a run is active. */
    public synchronized void submit(String line) {
        String text = line.strip();
        if (text.isEmpty()) {
            return;
        }
        if (busy()) {
            terminal.println("(queued as a follow-up)");
            report(agent.followUp(text), "follow-up");
        } else {
            awaitingRun = true;
            report(agent.prompt(text), "prompt");
        }
    }

    // --- daemon events -----------------------------------------------------------------------

    public synchronized void onEvent(AgentEvent event) {
        if (event instanceof AgentEvent.AgentStart) {
            running = true;
            awaitingRun = false;
            lastError = null;
        } else if (event instanceof AgentEvent.MessageUpdate update) {
            if ("text_delta".equals(update.assistantMessageEvent().type())) {
                terminal.print(update.assistantMessageEvent().delta());
            }
        } else if (event instanceof AgentEvent.MessageEnd end && end.message() instanceof AgentMessage.Assistant reply) {
            onReplyEnd(reply);
        } else if (event instanceof AgentEvent.ToolExecutionStart tool) {
            terminal.println(EventText.toolCall(tool.toolName(), tool.args()));
        } else if (event instanceof AgentEvent.ToolExecutionEnd tool && tool.isError()) {
            terminal.println(EventText.toolFailed(tool.toolName()));
        } else if (event instanceof AgentEvent.AgentEnd end) {
            onRunEnd(Boolean.TRUE.equals(end.willRetry()));
        } else if (event instanceof AgentEvent.AutoRetryStart start) {
            onRetryStart(start);
        } else if (event instanceof AgentEvent.AutoRetryEnd end) {
            onRetryEnd(end);
        } else if (event instanceof AgentEvent.CompactionStart) {
            terminal.status("Compacting context…");
        } else if (event instanceof AgentEvent.CompactionEnd end) {
            onCompactionEnd(end);
        } else {
            EventText.notice(event).ifPresent(terminal::println);
        }
    }

    private void onReplyEnd(AgentMessage.Assistant reply) {
        terminal.endLine();
        if (reply.stopReason() == StopReason.ERROR) {
            lastError = reply.errorMessage(); // shown only if no retry takes it over
        } else if (reply.stopReason() == StopReason.ABORTED) {
            terminal.println("(aborted)");
        }
    }

    private void onRunEnd(boolean continues) {
        running = false;
        awaitingRun = continues;
        if (!busy() && lastError != null) {
            terminal.println("Error: " + lastError); // a failure no retry chain reports
        }
        if (!continues) {
            lastError = null;
        }
    }

    private void onRetryStart(AgentEvent.AutoRetryStart start) {
        if (!retrying) {
            // First attempt of a chain: remember what Esc did, to restore it at auto_retry_end.
            retrying = true;
            escapeBeforeRetry = terminal.bind(Key.ESCAPE, abortRetry);
        }
        lastError = null; // the retry speaks for this failure
        countdown.start(start.attempt(), start.maxAttempts(), start.delayMs());
    }

    private void onRetryEnd(AgentEvent.AutoRetryEnd end) {
        countdown.stop();
        terminal.status("");
        if (retrying) {
            retrying = false;
            if (escapeBeforeRetry == null) {
                terminal.unbind(Key.ESCAPE);
            } else {
                terminal.bind(Key.ESCAPE, escapeBeforeRetry);
            }
            escapeBeforeRetry = null;
        }
        if (!end.success()) {
            awaitingRun = false; // a failed chain starts no further run
            lastError = null;
            terminal.println(EventText.retryFailed(end.attempt(), end.finalError()));
        }
    }

    private void onCompactionEnd(AgentEvent.CompactionEnd end) {
        terminal.status("");
        if (!end.willRetry() && !running) {
            awaitingRun = false; // the continuation it could have started will not come
        }
        if (end.errorMessage() != null) {
            terminal.println("Compaction failed: " + end.errorMessage());
        }
    }

    // --- key actions (run on the input thread, outside the lock) -----------------------------

    private void abortRun() {
        if (busy()) {
            report(agent.abort(), "abort");
        }
    }

    private void abortRetry() {
        report(agent.abortRetry(), "abort_retry");
    }

    /** Failures of a command become one line; refused prompts also end the wait for their run. */
    private void report(CompletableFuture<Void> sent, String what) {
        sent.whenComplete((ignored, failure) -> {
            if (failure != null) {
                onCommandFailed(what, failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
            }
        });
    }

    private synchronized void onCommandFailed(String what, Throwable failure) {
        if ("prompt".equals(what)) {
            awaitingRun = false;
        }
        String message = failure instanceof RpcException rpc && rpc.serverError() != null
                ? rpc.serverError() : failure.getMessage();
        terminal.println("Error (" + what + "): " + message);
    }
}
