package dev.agentd.server.recovery;

/**
 * What the session does at the end of a run (docs/ARCHITECTURE.md §4.1). The session
 * executes actions; it never decides. Model fallback adds actions here without touching the rest.
 */
public sealed interface RecoveryAction {

    /** True when another run of the same prompt follows ({@code agent_end.willRetry}). */
    boolean continuesRun();

    /** Nothing to recover: the prompt's run is over. */
    record Finish() implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return false;
        }
    }

    /**
     * Retry on the same model after {@code delayMs}. {@code credentialSwitched}: the usage limit
     * blocked the credential in use and another one will serve the retry (the delay is then 0).
     */
    record Retry(int attempt, long delayMs, String errorMessage, boolean credentialSwitched) implements RecoveryAction {
        @Override
        public boolean continuesRun() {
            return true;
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
    }

    /** The context overflowed again after a compaction for this user message: report, do not loop. */
    record CompactionFailed(String errorMessage) implements RecoveryAction {
        public static final String SECOND_OVERFLOW = "Context overflow recovery failed after one compact-and-retry "
                + "attempt. Try reducing context or switching to a larger-context model.";

        @Override
        public boolean continuesRun() {
            return false;
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
    }
}
