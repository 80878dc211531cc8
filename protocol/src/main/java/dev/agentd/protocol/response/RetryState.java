package dev.agentd.protocol.response;

/**
 * {@code get_state.data.retry} (agentd, additive; absent when there is nothing to show): a pending
 * resume at a limit's reset (FALLBACK §11).
 */
public record RetryState(Resume resume) {

    /** As {@code retry_resume_scheduled} announced it; {@code waitMs} is what is left now. */
    public record Resume(String selector, long resumeAt, long waitMs, String reason) {}
}
