/**
 * The coding tools and their registry. A tool gets a call's arguments, a cancellation token and an
 * update sink; it never sees the session or the wire. May import {@code protocol},
 * {@code ai.ToolDefinition} (what a tool advertises to the model) and {@code runtime}.
 *
 * <p>Entry points for the daemon: {@link dev.agentd.server.tools.Tools#create} (the {@code --tools}
 * selection), {@link dev.agentd.server.tools.SystemPrompt} and
 * {@link dev.agentd.server.tools.BashExecutor} (shared with the RPC {@code bash} command). The
 * built-in tools extend {@link dev.agentd.server.tools.BaseTool}, which validates arguments against
 * their {@link dev.agentd.server.tools.ToolParams}; all output budgets come from
 * {@link dev.agentd.server.tools.Truncation}.
 */
package dev.agentd.server.tools;
