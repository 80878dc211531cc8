package dev.agentd.server.session;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A prompt that passed the checks made on the spot (empty, busy). {@link #launch} runs the rest of
 * the preflight (model, credential) on the run thread and then calls its {@code onAccepted} — the
 * caller's one success answer — before the run's first event; a prompt failing the preflight never
 * calls it, and {@link #done()} completes exceptionally with {@link PromptFailedException} instead
 * (SPEC §3.3: one answer per prompt). Otherwise {@link #done()} completes when the prompt's logical
 * run is over, including every retry and continuation it caused.
 */
public final class PromptTicket {
    private final CompletableFuture<Void> done;
    private final Consumer<Runnable> launcher;
    private final boolean queued;

    PromptTicket(CompletableFuture<Void> done, Consumer<Runnable> launcher, boolean queued) {
        this.done = done;
        this.launcher = launcher;
        this.queued = queued;
    }

    /**
     * Finishes the preflight and starts the run; {@code onAccepted} runs first, unless the preflight
     * fails. A queued message (steering or follow-up) is accepted at once. Call once.
     */
    public void launch(Runnable onAccepted) {
        launcher.accept(onAccepted);
    }

    public CompletableFuture<Void> done() {
        return done;
    }

    /** True when the message was queued into the running prompt rather than starting a run. */
    public boolean queued() {
        return queued;
    }
}
