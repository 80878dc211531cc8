package dev.agentd.server.recovery;

import java.util.Objects;


/**
 * What the session does at the end of a run (docs/ARCHITECTURE.md §4.1). The session
 * executes actions; it never decides. Model fallback adds actions here without touching the rest.
 *
 * <p>Dispatch goes through {@link Handler} rather than {@code instanceof} chains: Java 17 has no
 * exhaustive pattern switch, and a visitor makes the compiler reject a new action that some
 * handler does not carry out (an {@code else} fallthrough would silently treat it as the end of
 * the run).
 */
public sealed interface RecoveryAction {

    /** True when another run of the same prompt follows ({@code agent_end.willRetry}). */
    boolean continuesRun();

    /** Calls the handler method of this action's type. */
    <R> R accept(Handler<R> handler);

    /** One method per action; implementing it is how the session learns of a new action. */
    interface Handler<R> {
        R finish(Finish action);

        R retry(Retry action);

        R switchCredential(SwitchCredential action);

        R blockCredential(BlockCredential action);

        R compact(Compact action);

        R compactionFailed(CompactionFailed action);

        R giveUp(GiveUp action);

        R switchModel(SwitchModel action);

        R fallbackExhausted(FallbackExhausted action);

        R resumeAtReset(ResumeAtReset action);
    }

    /** Nothing to recover: the prompt's run is over. */
    record Finish() implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return false;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.finish(this);
        }
    }

    /**
     * Retry on the same model and credential after {@code delayMs}; {@code rateLimitWait} is the
     * chain's 429 wait state from then on (FALLBACK §4 tier 1).
     */
    record Retry(int attempt, long delayMs, String errorMessage, RateLimitWait rateLimitWait)
            implements RecoveryAction {
        public Retry {
            rateLimitWait = rateLimitWait == null ? RateLimitWait.NONE : rateLimitWait;
        }

        /** A retry that leaves no 429 wait state. */
        public Retry(int attempt, long delayMs, String errorMessage) {
            this(attempt, delayMs, errorMessage, RateLimitWait.NONE);
        }

        @Override
        public boolean continuesRun() {
            return true;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.retry(this);
        }
    }

    /**
     * A usage limit, and another credential of the provider is free (SPEC §5.6): block the one in
     * use for {@code retryAfterMs} (null = the auth store's default), then retry at once
     * ({@code delayMs:0}) with the other.
     */
    record SwitchCredential(int attempt, String errorMessage, Long retryAfterMs) implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return true;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.switchCredential(this);
        }
    }

    /**
     * A usage limit with no other credential free: block the one in use anyway (SPEC §5.6 always
     * marks it, so selection moves off it once another frees up), then do {@code then}.
     */
    record BlockCredential(Long retryAfterMs, RecoveryAction then) implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return then.continuesRun();
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.blockCredential(this);
        }
    }

    /**
     * Compact the context ({@code reason} overflow or threshold, SPEC §8.2). After an overflow the
     * run continues on the compacted context.
     */
    record Compact(String reason) implements RecoveryAction {
        public static final String OVERFLOW = "overflow";
        public static final String THRESHOLD = "threshold";

        @Override
        public boolean continuesRun() {
            return OVERFLOW.equals(reason);
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.compact(this);
        }
    }

    /** The context overflowed again after a compaction for this user message: report, do not loop. */
    record CompactionFailed(String errorMessage) implements RecoveryAction {
        public static final String SECOND_OVERFLOW = "Context overflow recovery failed after one compact-and-retry "
                + "attempt. Try reducing context or switching to a larger-context model.";

        @Override
        public boolean continuesRun() {
            return false;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.compactionFailed(this);
        }
    }

    /**
     * End the open retry chain (or refuse to start one) with {@code auto_retry_end{success:false}},
     * then do {@code then}.
     */
    record GiveUp(int attempt, String finalError, RecoveryAction then) implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return then.continuesRun();
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.giveUp(this);
        }
    }

    /**
     * Switch to the next rung of the fallback chain (FALLBACK §3, §5.3), then retry at once
     * ({@code delayMs:0}) as attempt {@code attempt} of the new rung: 1, except after a refusal, whose
     * hops share the budget. The decision names the rung ({@code to}); carrying it out switches there,
     * and looks further only when the rung's circuit no longer admits this session.
     *
     * @param classification the failure that caused the switch (cooldown cause, provider skips)
     * @param limit the usage-limit scope of the failure, or null (the {@code limit} of the event)
     * @param retryAfterMs the server's hint, or null (it sets the failed model's cooldown)
     * @param probeBack a tier-2 429 (FALLBACK §4): once switched, probe the episode's original back
     *     within {@code retryAfterMs} (§5.5)
     * @param to the rung to switch to, as the decision's {@link FallbackView} named it
     */
    record SwitchModel(SwitchReason reason, Classification classification,
            LimitScope limit, int attempt, String errorMessage, Long retryAfterMs, boolean probeBack, Candidate to)
            implements RecoveryAction {
        public SwitchModel {
            Objects.requireNonNull(to, "to");
        }

        @Override
        public boolean continuesRun() {
            return true;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.switchModel(this);
        }
    }

    /**
     * A switch was wanted but no rung of the configured chain {@code chainKey} is left: announce
     * {@code retry_fallback_exhausted} (before the chain's failed end), then do {@code then}. The
     * failure's {@code classification} (null: unknown) still marks a spent account or model, so a
     * stranded fallback reverts at the next boundary.
     */
    record FallbackExhausted(String chainKey, String lastError, Classification classification, Long retryAfterMs,
            RecoveryAction then) implements RecoveryAction {
        public FallbackExhausted(String chainKey, String lastError, RecoveryAction then) {
            this(chainKey, lastError, null, null, then);
        }

        @Override
        public boolean continuesRun() {
            return then.continuesRun();
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.fallbackExhausted(this);
        }
    }

    /**
     * Nothing can serve before the limit's known reset (FALLBACK §11): record the schedule, announce
     * {@code retry_resume_scheduled}, then retry attempt {@code attempt} after {@code waitMs} (the
     * server's hint), continuing the same turn; a cancel ends the chain as any retry wait does.
     *
     * @param reason {@code usage_limit}, {@code quota} or {@code rate_limited}
     */
    record ResumeAtReset(int attempt, long waitMs, String reason, String errorMessage) implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return true;
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.resumeAtReset(this);
        }
    }
}
