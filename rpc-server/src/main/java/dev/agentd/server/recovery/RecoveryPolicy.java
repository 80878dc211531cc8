package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.fallback.SwitchReason;

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
 *   <li>a server hint above {@code maxRetryDelayMs} ends the chain unless a credential switch
 *       applies (SPEC §5.5);</li>
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
 * </ul>
 */
public final class RecoveryPolicy {

    public RecoveryAction decide(RunFacts facts) {
        AgentMessage.Assistant last = facts.lastAssistant();
        RecoveryAction afterRetry = compactionCheck(facts);
        if (last == null || last.stopReason() != StopReason.ERROR) {
            return afterRetry;
        }
        String error = last.errorMessage() == null || last.errorMessage().isBlank() ? "Unknown error"
                : last.errorMessage();
        // One classification per decision; model fallback reads the same class to pick its action.
        Classification classification = ErrorClassifier.classify(last, facts.contextWindow());
        ErrorClass errorClass = classification.errorClass();
        RetryConfig config = facts.config();
        RecoveryAction noRetry = facts.chainAttempt() > 0
                ? new RecoveryAction.GiveUp(facts.chainAttempt(), error, afterRetry)
                : afterRetry;
        if (!config.enabled() || facts.retrySuppressed()) {
            return noRetry;
        }
        Fallback fallback = new Fallback(facts.fallback(), classification, error, last.retryAfterMs());
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
        // A half-open circuit's probe gets exactly one request before the chain moves on (FALLBACK §6).
        if (attempt > config.maxRetries() || (facts.fallback().probing() && fallback.possible())) {
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
        RecoveryAction onThisCredential = retryOrRefuse(last, attempt, error, config, afterRetry, fallback);
        return usageLimit ? new RecoveryAction.BlockCredential(last.retryAfterMs(), onThisCredential)
                : onThisCredential;
    }

    /**
     * The switch the error asks for, if the view has a rung for it; else {@code orElse}, announced
     * as exhausting the configured chain when there is one (no chain: the plain retry contract).
     */
    private record Fallback(FallbackView view, Classification classification, String error, Long retryAfterMs) {
        boolean possible() {
            return view.canSwitch(classification.errorClass());
        }

        RecoveryAction to(SwitchReason reason, int attempt) {
            return new RecoveryAction.SwitchModel(reason, classification, classification.scope(), attempt, error,
                    retryAfterMs);
        }

        RecoveryAction orElse(SwitchReason reason, int attempt, RecoveryAction orElse) {
            if (possible()) {
                return to(reason, attempt);
            }
            return view.exhausts() ? new RecoveryAction.FallbackExhausted(view.chainKey(), error, classification,
                    retryAfterMs, orElse) : orElse;
        }
    }

    /** Retry attempt {@code attempt} after the backoff, unless the server asks for a longer wait. */
    private static RecoveryAction retryOrRefuse(AgentMessage.Assistant last, int attempt, String error,
            RetryConfig config, RecoveryAction afterRetry, Fallback fallback) {
        Long hint = last.retryAfterMs();
        if (hint != null && hint > config.maxRetryDelayMs()) {
            // An over-budget wait is no reason to stop when another model can serve now (FALLBACK §3).
            return fallback.orElse(SwitchReason.TRANSIENT, 1, new RecoveryAction.GiveUp(attempt - 1,
                    "Provider requested retry delay " + hint + "ms, exceeding configured maximum "
                            + config.maxRetryDelayMs() + "ms", afterRetry));
        }
        return new RecoveryAction.Retry(attempt, config.backoffMs(attempt), error);
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
