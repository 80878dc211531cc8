/**
 * The pi dialects ({@code PiDialect}): each command of a line routed to the daemon's one session
 * ({@link dev.agentd.server.rpc.CommandRouter}, shared by both dialects), every response and event
 * written through the one output. {@code RpcMode} is the pi dialect; {@code JsonRpcMode} the
 * JSON-RPC 2.0 one, whose envelope agentd checks ({@code wire.JsonRpcEnvelope}) and whose method
 * dispatch jsonrpc4j does ({@code JsonRpcDispatcher}). May import {@code protocol}, {@code wire}
 * (the framing and writer ACP shares) and {@code session}; from the packages below it only records
 * (the values session's API returns, such as {@code recovery.RetryConfig}), and
 * {@code ai.faux.FauxScript}, since {@code faux_enqueue} feeds the daemon-wide faux script, which
 * is not session state; and {@code commands} and {@code export}, pi 0.73's templates/skills and
 * HTML page ({@code PiExtras}); and {@code fallback.control.FallbackCommands}, the fallback
 * commands the session hands out. It calls no other service below session.
 */
package dev.agentd.server.rpc;
