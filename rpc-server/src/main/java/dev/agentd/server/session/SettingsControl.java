package dev.agentd.server.session;

import dev.agentd.protocol.model.QueueMode;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.recovery.ResetWait;
import dev.agentd.server.recovery.RetryConfig;

/**
 * The settings commands of a session: reading the retry and compaction groups, and the toggles
 * that apply at once and are persisted to the global settings file (SPEC §2) — the retry toggles
 * unless sent with {@code persist:false}.
 */
public final class SettingsControl {
    private final SessionContext context;
    private final MessageQueues queues;

    SettingsControl(SessionContext context, MessageQueues queues) {
        this.context = context;
        this.queues = queues;
    }

    public RetryConfig retry() {
        return RetryConfig.from(context.settings().current());
    }

    /** {@code retry.keepPartial} (default true): a retry keeps what a cut stream delivered (SPEC §5.9). */
    public boolean keepPartial() {
        return context.settings().current().bool("retry.keepPartial", true);
    }

    /** {@code retry.resumeAtResetMaxMs} (FALLBACK §11); 0: a known reset is not waited for. */
    public long resumeAtResetMaxMs() {
        return ResetWait.maxMs(context.settings().current());
    }

    public CompactionConfig compaction() {
        return CompactionConfig.from(context.settings().current());
    }

    /** {@code set_auto_retry}, persisted to the global file (as pi does). */
    public void setAutoRetry(boolean enabled) {
        setAutoRetry(enabled, true);
    }

    /** {@code set_auto_retry}; {@code persist} false: for this process only, no file is written. */
    public void setAutoRetry(boolean enabled, boolean persist) {
        context.persist("retry.enabled", enabled, persist);
    }

    /** {@code set_auto_compaction}. */
    public void setAutoCompaction(boolean enabled) {
        context.persist("compaction.enabled", enabled);
    }

    /** {@code set_retry_settings}: validates every given value first, then persists them. */
    public RetryConfig setRetry(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs) {
        return setRetry(maxRetries, baseDelayMs, maxRetryDelayMs, true);
    }

    /** As {@link #setRetry(Integer, Long, Long)}; {@code persist} false: for this process only. */
    public RetryConfig setRetry(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs, boolean persist) {
        if (maxRetries != null && (maxRetries < 0 || maxRetries > RetryConfig.MAX_RETRIES_LIMIT)) {
            throw new IllegalArgumentException("maxRetries must be between 0 and " + RetryConfig.MAX_RETRIES_LIMIT);
        }
        checkDelay("baseDelayMs", baseDelayMs);
        checkDelay("maxRetryDelayMs", maxRetryDelayMs);
        if (maxRetries != null) {
            context.persist("retry.maxRetries", maxRetries, persist);
        }
        if (baseDelayMs != null) {
            context.persist("retry.baseDelayMs", baseDelayMs, persist);
        }
        if (maxRetryDelayMs != null) {
            context.persist("retry.maxRetryDelayMs", maxRetryDelayMs, persist);
        }
        return retry();
    }

    public void setSteeringMode(QueueMode mode) {
        queues.setSteeringMode(mode);
        context.persist("steeringMode", mode.wire());
    }

    public void setFollowUpMode(QueueMode mode) {
        queues.setFollowUpMode(mode);
        context.persist("followUpMode", mode.wire());
    }

    private static void checkDelay(String name, Long value) {
        if (value != null && (value < 0 || value > RetryConfig.MAX_DELAY_LIMIT)) {
            throw new IllegalArgumentException(name + " must be between 0 and " + RetryConfig.MAX_DELAY_LIMIT);
        }
    }
}
