package dev.agentd.protocol.event;

/**
 * What a retry kept of a reply whose stream was cut (issue 27 point 3, SPEC §5): the characters of
 * text it continues from and the completed tool calls it runs instead of asking for them again.
 * Rides on {@code auto_retry_start} only when something was kept.
 */
public record ResumedFrom(int textChars, int toolCalls) {}
