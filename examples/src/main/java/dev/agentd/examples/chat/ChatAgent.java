package dev.agentd.examples.chat;

import java.util.concurrent.CompletableFuture;

/**
 * The commands the chat sends. Each returns at once; the future completes with the daemon's answer
 * (exceptionally when refused), so no UI thread ever blocks on the daemon.
 */
public interface ChatAgent {

    /** Starts a run with {@code text}. */
    CompletableFuture<Void> prompt(String text);

    /** Queues {@code text} for delivery once the current run would stop (or starts a run when idle). */
    CompletableFuture<Void> followUp(String text);

    /** Cancels a pending retry, then the stream and tools. */
    CompletableFuture<Void> abort();

    /** Cancels the retry chain's backoff wait. */
    CompletableFuture<Void> abortRetry();
}
