package dev.agentd.protocol.response;

/**
 * One MCP server of a session, as {@code get_state} lists it.
 *
 * @param transport {@code stdio}, {@code http} or {@code sse}
 * @param status {@code starting}, {@code connected}, {@code failed} (it never connected, or its
 *     connection ended: {@code error} says why) or {@code closed}
 * @param tools how many of its tools the model sees
 * @param error one line, absent unless {@code failed}
 */
public record McpServerStatus(String name, String transport, String status, int tools, String error) {}
