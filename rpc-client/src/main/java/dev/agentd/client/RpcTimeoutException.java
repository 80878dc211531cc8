package dev.agentd.client;

/** Waiting for a response, a prompt's run or idleness took longer than the given timeout. */
public class RpcTimeoutException extends RpcException {
    private static final long serialVersionUID = 1L;

    public RpcTimeoutException(String message, String command, String stderr, Throwable cause) {
        super(message, command, null, stderr, cause);
    }

    /** "Timeout …" plus the stderr tail, which usually says why the daemon is stuck. */
    static RpcTimeoutException of(String message, String command, String stderr) {
        return new RpcTimeoutException(message + stderrSuffix(stderr), command, stderr, null);
    }
}
