/**
 * What every wire dialect shares, beneath the pi dialects ({@code rpc}) and ACP ({@code acp}),
 * which import it as siblings: stdin read as bounded JSON lines ({@code CommandLines}), the one
 * way to stdout ({@code RpcOutput}, whose {@code OutputQueue} writes on a thread of its own and
 * folds delta updates while the reader lags, {@code UpdateCoalescing}), the error record that
 * takes the place of one that cannot be written ({@code WriteFailures}), JSON-RPC 2.0's reply,
 * error and notification records, the check of a JSON-RPC 2.0 request that both JSON-RPC
 * dialects (jsonrpc and ACP) make before dispatching ({@code JsonRpcEnvelope}), and the
 * {@code ProtocolMode} every dialect is.
 * May import {@code protocol}.
 */
package dev.agentd.server.wire;
