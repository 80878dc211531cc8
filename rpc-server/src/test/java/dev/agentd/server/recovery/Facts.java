package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.compaction.CompactionConfig;

/**
 * Run facts for the policy tables, built by name: no compaction, no free credential, no fallback,
 * no 429 wait state, the default tier boundaries and the clock at 0 unless a test says otherwise.
 */
final class Facts {
    private final AgentMessage.Assistant last;
    private final RetryConfig config;
    private int chainAttempt;
    private boolean retrySuppressed;
    private long contextWindow = 200_000;
    private CompactionConfig compaction = new CompactionConfig(false, 0, 0);
    private boolean otherCredentialFree;
    private FallbackView fallback = FallbackView.NONE;
    private RateLimitWait rateLimitWait = RateLimitWait.NONE;
    private HintTiers.Limits hintLimits = HintTiers.Limits.DEFAULTS;
    private long nowMs;
    private double jitter;
    private long resumeAtResetMaxMs;

    private Facts(AgentMessage.Assistant last, RetryConfig config) {
        this.last = last;
        this.config = config;
    }

    /** The facts of a run that ended with {@code last} (null: no reply) under {@code config}. */
    static Facts after(AgentMessage.Assistant last, RetryConfig config) {
        return new Facts(last, config);
    }

    Facts attempt(int attempt) {
        chainAttempt = attempt;
        return this;
    }

    Facts suppressed(boolean suppressed) {
        retrySuppressed = suppressed;
        return this;
    }

    Facts window(long window) {
        contextWindow = window;
        return this;
    }

    Facts compaction(CompactionConfig settings) {
        compaction = settings;
        return this;
    }

    Facts otherCredentialFree(boolean free) {
        otherCredentialFree = free;
        return this;
    }

    Facts fallback(FallbackView view) {
        fallback = view;
        return this;
    }

    Facts rateLimit(RateLimitWait wait, HintTiers.Limits limits, long now) {
        rateLimitWait = wait;
        hintLimits = limits;
        nowMs = now;
        return this;
    }

    /** The decision's jitter draw, in [0, 1) (0 unless a test says otherwise). */
    Facts jitter(double fraction) {
        jitter = fraction;
        return this;
    }

    /** {@code retry.resumeAtResetMaxMs} (off unless a test sets it). */
    Facts resumeAtResetMaxMs(long maxMs) {
        resumeAtResetMaxMs = maxMs;
        return this;
    }

    RunFacts build() {
        return new RunFacts(last, chainAttempt, config, retrySuppressed, contextWindow, compaction, 0, false,
                otherCredentialFree, fallback, rateLimitWait, hintLimits, nowMs, jitter, resumeAtResetMaxMs);
    }
}
