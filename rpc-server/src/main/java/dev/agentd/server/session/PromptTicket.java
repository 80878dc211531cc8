package dev.agentd.server.session;

import java.util.concurrent.CompletableFuture;

/**
 * An accepted prompt. The caller answers its client first, then calls {@link #launch()}, so the
 * acknowledgement always precedes the run's first event. {@link #done()} completes when the
 * prompt's logical run is over — including every retry and continuation it caused — or
 * exceptionally with {@link PromptFailedException} when it failed before starting.
 */
public final class PromptTicket {
    private final CompletableFuture<Void> done;
    private final Runnable launcher;
    private final boolean queued;

    PromptTicket(CompletableFuture<Void> done, Runnable launcher, boolean queued) {
        this.done = done;
        this.launcher = launcher;
        this.queued = queued;
    }

    /** Starts the run (no-op for a message that was queued as steering or follow-up). Call once. */
    public void launch() {
        launcher.run();
    }

    public CompletableFuture<Void> done() {
        return done;
    }

    /** True when the message was queued into the running prompt rather than starting a run. */
    public boolean queued() {
        return queued;
    }
}
