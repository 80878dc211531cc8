package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.Reroute;
import dev.agentd.server.compaction.CompactionConfig;

/**
 * The end-of-run decision (SPEC §5.3): a pure function of {@link RunFacts}; the session carries
 * the returned action out.
 *
 * <ul>
 *   <li>a retryable error (see {@link ErrorClassifier}) starts or continues a chain: attempt n
 *       waits {@code baseDelayMs * 2^(n-1)}; past {@code maxRetries} the chain gives up reporting
 *       {@code n - 1} attempts;</li>
 *   <li>usage-limit errors block the credential in use: when another credential is free the
 *       retry switches to it at once ({@code SwitchCredential}, {@code delayMs = 0}); otherwise
 *       the normal decision is wrapped in {@code BlockCredential};</li>
 *   <li>backoff never exceeds {@code maxRetryDelayMs} (see {@link RetryConfig#backoffMs});</li>
 *   <li>a server hint sets the wait (SPEC §5.5): for a non-429 retryable error the hint is the
 *       delay when it is at most {@code maxRetryDelayMs} (a usage limit's hint blocks its
 *       credential instead, and the wait stays the backoff); above it the chain ends unless a
 *       credential or model switch applies;</li>
 *   <li>a 429-class error is routed by its hint's tier (FALLBACK §4, arithmetic in
 *       {@link HintTiers}): with a rung to switch to, no hint and tiers 2–3 switch at once (tier 2
 *       also arms probe-back) and tier 1 waits the hinted sequence until the budget or the hinted
 *       wait cap is spent; without one, tiers none–2 retry the same model and tier 3 fails at
 *       once;</li>
 *   <li>a non-retryable error while a chain is open ends it with {@code success:false} (pi leaves
 *       the chain dangling; SPEC §5.3 fixes that);</li>
 *   <li>disabled retries and a chain cancelled mid-attempt never retry;</li>
 *   <li>only when no retry starts is compaction considered (SPEC §5.1): an overflow compacts and
 *       continues, once per user message; a context above {@code contextWindow - reserveTokens}
 *       compacts without continuing. Exhausted retries still get this check.</li>
 *   <li>model fallback (FALLBACK §3, only when {@link RunFacts#fallback} has a rung): a transient
 *       error that spent the rung's {@code maxRetries}, or asks for an over-budget wait, switches
 *       with delay 0 and the new rung counts its attempts from 1 (a fully failing chain of N rungs
 *       costs {@code 1 + (N+1)·maxRetries} requests); billing, quota and usage limits without a free
 *       credential switch at once; rejected credentials, access denials and hard errors switch
 *       without a same-model retry unless the reply holds a tool call; refusals switch while the
 *       shared budget lasts; an overflow never switches. A wanted switch with no rung left on a
 *       configured chain is announced as {@code FallbackExhausted} before the chain ends.</li>
 *   <li>resume at reset (FALLBACK §11, {@link ResetWait}): where a usage limit with no free
 *       credential (its hint over {@code maxRetryDelayMs}, or its retries spent) or a tier-3 429
 *       would end the chain for want of a rung, a hint within {@code retry.resumeAtResetMaxMs}
 *       becomes {@code ResumeAtReset} instead. Quota and spend limits never resume: their hint is
 *       no period's reset.</li>
 * </ul>
 */
public final class RecoveryPolicy {

    /**
     * The one classification of a run's end (review W4): the decision, the fallback switch, the
     * cooldown rules and ACP's {@code errorKind} all read this value; none classifies again.
     */
    public Classification classify(RunFacts facts) {
        AgentMessage.Assistant last = facts.lastAssistant();
        return last == null ? Classification.of(ErrorClass.NONE) : ErrorClassifier.classify(last, facts.contextWindow());
    }

    public RecoveryAction decide(RunFacts facts) {
        return decide(facts, classify(facts));
    }

    /** @param classification {@link #classify}'s answer for these facts */
    public RecoveryAction decide(RunFacts facts, Classification classification) {
        AgentMessage.Assistant last = facts.lastAssistant();
        RecoveryAction afterRetry = compactionCheck(facts);
        if (last == null || last.stopReason() != StopReason.ERROR) {
            return afterRetry;
        }
        String error = last.errorMessage() == null || last.errorMessage().isBlank() ? "Unknown error"
                : last.errorMessage();
        ErrorClass errorClass = classification.errorClass();
        RetryConfig config = facts.config();
        RecoveryAction noRetry = facts.chainAttempt() > 0
                ? new RecoveryAction.GiveUp(facts.chainAttempt(), error, afterRetry)
                : afterRetry;
        if (!config.enabled() || facts.retrySuppressed()) {
            return noRetry;
        }
        // The provider already fell back (FALLBACK §10): agentd does not switch again on top of it;
        // the failure is the requested selector's, retried by the plain contract.
        FallbackView view = Reroute.of(last).isPresent() ? FallbackView.NONE : facts.fallback();
        Fallback fallback = new Fallback(view, classification, error, last.retryAfterMs());
        if (!errorClass.retriedOnSameModel()) {
            return switch (errorClass) {
                // Retrying the same account never helps: switch at once (FALLBACK §3).
                case BILLING, QUOTA -> fallback.orElse(SwitchReason.BILLING, 1, noRetry);
                // A tool call in the failed reply may have had effects: never replay it elsewhere.
                case CREDENTIAL_REJECTED, ACCESS_DENIED, HARD -> last.toolCalls().isEmpty()
                        ? fallback.orElse(SwitchReason.HARD_ERROR, 1, noRetry) : noRetry;
                // Refusal hops share the budget; maxRetries 0 never switches on a refusal.
                case REFUSAL -> facts.chainAttempt() + 1 <= config.maxRetries()
                        ? fallback.orElse(SwitchReason.REFUSAL, facts.chainAttempt() + 1, noRetry) : noRetry;
                default -> noRetry;
            };
        }
        int attempt = facts.chainAttempt() + 1;
        boolean usageLimit = classification.scope() != null;
        // A half-open circuit's probe gets exactly one request before the chain moves on (FALLBACK §6),
        // whatever the hint of a 429 says.
        boolean probeSpent = view.probing() && fallback.possible();
        if (usageLimit && !facts.otherCredentialFree() && !fallback.possible()
                && ResetWait.qualifies(last.retryAfterMs(), facts.resumeAtResetMaxMs())
                && (last.retryAfterMs() > config.maxRetryDelayMs() || attempt > config.maxRetries())) {
            // Where the chain would end (an over-budget hint, or the retries spent) with nothing else
            // to serve, and the window names its reset: wait for it instead (FALLBACK §11).
            return new RecoveryAction.BlockCredential(last.retryAfterMs(), fallback.orElse(SwitchReason.BILLING, 1,
                    new RecoveryAction.ResumeAtReset(attempt, last.retryAfterMs(), ResetWait.USAGE_LIMIT, error)));
        }
        if (errorClass == ErrorClass.RATE_LIMITED && !usageLimit && !probeSpent) {
            return rateLimited(facts, attempt, error, afterRetry, fallback);
        }
        if (attempt > config.maxRetries() || probeSpent) {
            RecoveryAction next = fallback.orElse(usageLimit ? SwitchReason.BILLING : SwitchReason.TRANSIENT, 1,
                    new RecoveryAction.GiveUp(attempt - 1, error, afterRetry));
            return usageLimit && fallback.possible() ? new RecoveryAction.BlockCredential(last.retryAfterMs(), next)
                    : next;
        }
        if (usageLimit && facts.otherCredentialFree()) {
            return new RecoveryAction.SwitchCredential(attempt, error, last.retryAfterMs());
        }
        if (usageLimit && fallback.possible()) {
            // No other credential: the window will not reopen within a backoff, so the next rung serves.
            return new RecoveryAction.BlockCredential(last.retryAfterMs(), fallback.to(SwitchReason.BILLING, 1));
        }
        // A usage limit's hint is its credential's window, which the block already holds: another
        // credential may free up sooner, so the wait stays the backoff (SPEC §5.6).
        RecoveryAction onThisCredential = retryOrRefuse(facts, attempt, error, afterRetry, fallback, !usageLimit);
        return usageLimit ? new RecoveryAction.BlockCredential(last.retryAfterMs(), onThisCredential)
                : onThisCredential;
    }

    /**
     * The switch the error asks for, if the view has a rung for it; else {@code orElse}, announced
     * as exhausting the configured chain when there is one (no chain: the plain retry contract).
     */
    private record Fallback(FallbackView view, Classification classification, String error, Long retryAfterMs) {
        boolean possible() {
            return view.canSwitch(classification);
        }

        RecoveryAction to(SwitchReason reason, int attempt) {
            return to(reason, attempt, retryAfterMs, false);
        }

        RecoveryAction to(SwitchReason reason, int attempt, Long cooldownMs, boolean probeBack) {
            Candidate target = view.target(classification).orElseThrow(
                    () -> new IllegalStateException("a switch was decided with no rung to switch to"));
            return new RecoveryAction.SwitchModel(reason, classification, classification.scope(), attempt, error,
                    cooldownMs, probeBack, target);
        }

        RecoveryAction orElse(SwitchReason reason, int attempt, RecoveryAction orElse) {
            if (possible()) {
                return to(reason, attempt);
            }
            return view.exhausts() ? new RecoveryAction.FallbackExhausted(view.chainKey(), error, classification,
                    retryAfterMs, orElse) : orElse;
        }
    }

    /**
     * A 429-class error (FALLBACK §4): its hint's tier decides between switching at once, the
     * tier-1 wait sequence, and a same-model wait when no rung can take over.
     */
    private static RecoveryAction rateLimited(RunFacts facts, int attempt, String error, RecoveryAction afterRetry,
            Fallback fallback) {
        Long hint = facts.lastAssistant().retryAfterMs();
        RetryConfig config = facts.config();
        HintTiers.Limits limits = facts.hintLimits();
        HintTiers.Tier tier = HintTiers.classify(hint, limits);
        long floor = config.backoffMs(attempt);
        if (fallback.possible()) {
            return switch (tier) {
                case NO_HINT -> fallback.to(SwitchReason.TRANSIENT, 1, null, false);
                case PROBE_BACK -> fallback.to(SwitchReason.TRANSIENT, 1, hint, true);
                case FALLBACK_ONLY -> fallback.to(SwitchReason.TRANSIENT, 1, hint, false);
                case IN_TURN -> {
                    if (attempt > config.maxRetries()) {
                        yield fallback.to(SwitchReason.TRANSIENT, 1, hint, false);
                    }
                    HintTiers.InTurn wait = HintTiers.inTurn(hint, facts.rateLimitWait(), floor,
                            limits.hintedWaitCapMs(), facts.nowMs());
                    // Past the cap, waiting longer on this model costs more than another model would.
                    yield wait.demote() ? fallback.to(SwitchReason.TRANSIENT, 1, wait.remainingMs(), false)
                            : new RecoveryAction.Retry(attempt, facts.jittered(wait.delayMs()), error, wait.next());
                }
            };
        }
        if (tier == HintTiers.Tier.FALLBACK_ONLY) {
            return fallback.orElse(SwitchReason.TRANSIENT, 1, resumeOr(facts, ResetWait.RATE_LIMITED, attempt, error,
                    new RecoveryAction.GiveUp(attempt - 1, HintTiers.noFallbackMessage(hint, error), afterRetry)));
        }
        if (attempt > config.maxRetries()) {
            return fallback.orElse(SwitchReason.TRANSIENT, 1, new RecoveryAction.GiveUp(attempt - 1, error, afterRetry));
        }
        return new RecoveryAction.Retry(attempt, facts.jittered(HintTiers.withoutFallback(tier, hint, floor,
                limits.hintedWaitCapMs())), error, facts.rateLimitWait());
    }

    /** A resume at the hinted reset when it qualifies ({@link ResetWait#qualifies}), else {@code orElse}. */
    private static RecoveryAction resumeOr(RunFacts facts, String reason, int attempt, String error,
            RecoveryAction orElse) {
        Long hint = facts.lastAssistant().retryAfterMs();
        return ResetWait.qualifies(hint, facts.resumeAtResetMaxMs())
                ? new RecoveryAction.ResumeAtReset(attempt, hint, reason, error) : orElse;
    }

    /**
     * Retry attempt {@code attempt} after the server's hint when it gave one (SPEC §5.5; 0 counts
     * as none), else after the backoff; a hint above {@code maxRetryDelayMs} ends the chain.
     */
    private static RecoveryAction retryOrRefuse(RunFacts facts, int attempt, String error, RecoveryAction afterRetry,
            Fallback fallback, boolean hintSetsDelay) {
        RetryConfig config = facts.config();
        Long hint = facts.lastAssistant().retryAfterMs();
        if (hint != null && hint > config.maxRetryDelayMs()) {
            // An over-budget wait is no reason to stop when another model can serve now (FALLBACK §3).
            return fallback.orElse(SwitchReason.TRANSIENT, 1, new RecoveryAction.GiveUp(attempt - 1,
                    "Provider requested retry delay " + hint + "ms, exceeding configured maximum "
                            + config.maxRetryDelayMs() + "ms", afterRetry));
        }
        long delay = hintSetsDelay && hint != null && hint > 0 ? hint : config.backoffMs(attempt);
        return new RecoveryAction.Retry(attempt, facts.jittered(delay), error, facts.rateLimitWait());
    }

    private static RecoveryAction compactionCheck(RunFacts facts) {
        AgentMessage.Assistant last = facts.lastAssistant();
        CompactionConfig config = facts.compaction();
        if (!config.enabled() || last == null || last.stopReason() == StopReason.ABORTED) {
            return new RecoveryAction.Finish();
        }
        if (OverflowDetector.isOverflow(last, facts.contextWindow())) {
            return facts.overflowRecoveryAttempted()
                    ? new RecoveryAction.CompactionFailed(RecoveryAction.CompactionFailed.SECOND_OVERFLOW)
                    : new RecoveryAction.Compact(RecoveryAction.Compact.OVERFLOW);
        }
        if (facts.contextWindow() > 0 && facts.contextTokens() > facts.contextWindow() - config.reserveTokens()) {
            return new RecoveryAction.Compact(RecoveryAction.Compact.THRESHOLD);
        }
        return new RecoveryAction.Finish();
    }
}
