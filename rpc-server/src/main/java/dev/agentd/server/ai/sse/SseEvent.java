package dev.agentd.server.ai.sse;

/**
 * One dispatched server-sent event.
 *
 * @param event the {@code event:} field, or {@code "message"} when the event named none
 * @param data the {@code data:} lines joined with {@code \n}
 * @param id the last event id seen so far, or null
 */
public record SseEvent(String event, String data, String id) {}
