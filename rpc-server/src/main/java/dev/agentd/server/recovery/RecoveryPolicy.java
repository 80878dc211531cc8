package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
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
 *   <li>a server hint above {@code maxRetryDelayMs} ends the chain unless a credential switch
 *       applies (SPEC §5.5);</li>
 *   <li>a non-retryable error while a chain is open ends it with {@code success:false} (pi leaves
 *       the chain dangling; SPEC §5.3 fixes that);</li>
 *   <li>disabled retries and a chain cancelled mid-attempt never retry;</li>
 *   <li>only when no retry starts is compaction considered (SPEC §5.1): an overflow compacts and
 *       continues, once per user message; a context above {@code contextWindow - reserveTokens}
 *       compacts without continuing. Exhausted retries still get this check.</li>
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
        boolean retryable = classification.errorClass().retriedOnSameModel();
        RetryConfig config = facts.config();
        if (!retryable || !config.enabled() || facts.retrySuppressed()) {
            return facts.chainAttempt() > 0
                    ? new RecoveryAction.GiveUp(facts.chainAttempt(), error, afterRetry)
                    : afterRetry;
        }
        int attempt = facts.chainAttempt() + 1;
        if (attempt > config.maxRetries()) {
            return new RecoveryAction.GiveUp(attempt - 1, error, afterRetry);
        }
        boolean usageLimit = classification.scope() != null;
        if (usageLimit && facts.otherCredentialFree()) {
            return new RecoveryAction.SwitchCredential(attempt, error, last.retryAfterMs());
        }
        RecoveryAction onThisCredential = retryOrRefuse(last, attempt, error, config, afterRetry);
        return usageLimit ? new RecoveryAction.BlockCredential(last.retryAfterMs(), onThisCredential)
                : onThisCredential;
    }

    /** Retry attempt {@code attempt} after the backoff, unless the server asks for a longer wait. */
    private static RecoveryAction retryOrRefuse(AgentMessage.Assistant last, int attempt, String error,
            RetryConfig config, RecoveryAction afterRetry) {
        Long hint = last.retryAfterMs();
        if (hint != null && hint > config.maxRetryDelayMs()) {
            return new RecoveryAction.GiveUp(attempt - 1, "Provider requested retry delay " + hint
                    + "ms, exceeding configured maximum " + config.maxRetryDelayMs() + "ms", afterRetry);
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
