/**
 * {@code --mode acp}: the Agent Client Protocol v1 for editors (issue 16). {@code AcpMode} reads
 * and dispatches; {@code AcpSession} runs one session's prompts; {@code UpdateMapper} is the one
 * place where session events become {@code session/update}s and {@code PromptFailure} the one
 * where failures become JSON-RPC errors; {@code EditorTools} routes writes to the editor and asks
 * permission. The sessions come from a {@code SessionOpener} the daemon's wiring implements.
 * May import {@code protocol}, {@code session}, {@code wire} (the framing and writer the pi
 * dialects use too; nothing of theirs), {@code recovery.Classification},
 * {@code recovery.ErrorClass} and {@code recovery.TransientKind} (the recovery decision's
 * classification of a run's end, which acp reports and never recomputes),
 * {@code ai.ToolDefinition}, {@code tools}, {@code mcp} (the editor's MCP servers for a session),
 * {@code commands} (prompt templates and skills as slash commands), {@code runtime} and records.
 */
package dev.agentd.server.acp;
