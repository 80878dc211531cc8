package dev.agentd.server.recovery;


/**
 * What kind of failure ended a reply (FALLBACK.md §3, SPEC §5.2), as {@link ErrorClassifier}
 * decides it. Each class maps to one recovery action; only the first three are retried on the same
 * model.
 */
public enum ErrorClass {
    /** Not an error: the reply ended normally. */
    NONE,
    /** The user (or agentd) aborted the request. Never retried. */
    ABORTED,
    /** Overload, server error, dropped or timed-out stream: a same-model retry may succeed. */
    TRANSIENT,
    /** A 429-class rate limit (status, type or text; a request id containing 429 is not one). */
    RATE_LIMITED,
    /**
     * The plan's usage window is spent (SPEC §5.3 step 5): retried after credential rotation; the
     * {@link LimitScope} says whether other models of the provider may still serve.
     */
    USAGE_LIMIT,
    /** Credit balance, insufficient quota, billing: retrying the same account never helps. */
    BILLING,
    /** Quota, budget or spend limit exhausted: like billing, and it opens the circuit. */
    QUOTA,
    /** The credential was rejected (401, invalid key, revoked token): other credentials or providers. */
    CREDENTIAL_REJECTED,
    /** Authenticated but not allowed (403, not entitled, model not on the plan). */
    ACCESS_DENIED,
    /** The model declined to answer ({@code errorType:"refusal"}, usage-policy block): never the same model. */
    REFUSAL,
    /** Any other final error (invalid request, unknown failure): never replayed on the same model. */
    HARD,
    /** The context is larger than the model's window (SPEC §8.1): compaction, never retry or fallback. */
    OVERFLOW;

    /** True for the classes a same-model retry may fix (SPEC §5.2's "retryable"). */
    public boolean retriedOnSameModel() {
        return this == TRANSIENT || this == RATE_LIMITED || this == USAGE_LIMIT;
    }
}
