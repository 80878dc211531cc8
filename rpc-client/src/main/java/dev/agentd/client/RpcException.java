package dev.agentd.client;

/**
 * A command failed: the daemon answered {@code success:false} ({@link #serverError()} holds its
 * error), the connection ended, or the client was closed. {@link #stderr()} is the daemon's
 * stderr tail at the time of the failure (empty in attach mode).
 */
public class RpcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String command;
    private final String serverError;
    private final String stderr;

    public RpcException(String message, String command, String serverError, String stderr, Throwable cause) {
        super(message, cause);
        this.command = command;
        this.serverError = serverError;
        this.stderr = stderr == null ? "" : stderr;
    }

    public RpcException(String message) {
        this(message, null, null, null, null);
    }

    /** The daemon refused {@code command}: {@code "<command> failed: <error>"}. */
    static RpcException serverError(String command, String error) {
        return new RpcException(command + " failed: " + error, command, error, null, null);
    }

    /** The wire name of the command that failed, or null when the failure is not tied to one. */
    public String command() {
        return command;
    }

    /** The {@code error} of a {@code success:false} response, or null. */
    public String serverError() {
        return serverError;
    }

    /** The daemon's stderr tail captured with this failure ("" when none). */
    public String stderr() {
        return stderr;
    }

    /** ". Stderr: …" for messages, or "" when there is nothing to show. */
    static String stderrSuffix(String stderr) {
        return stderr == null || stderr.isBlank() ? "" : ". Stderr: " + stderr.strip();
    }

    /**
     * A fresh exception for the calling thread (so its stack trace shows the caller), keeping the
     * message and details and chaining the original, which may have been raised on the reader thread.
     */
    RpcException rethrowFor(String commandName) {
        String name = command != null ? command : commandName;
        if (this instanceof PromptFailedException failed) {
            return new PromptFailedException(getMessage(), serverError, stderr, failed.events(), this);
        }
        if (this instanceof RpcTimeoutException) {
            return new RpcTimeoutException(getMessage(), name, stderr, this);
        }
        return new RpcException(getMessage(), name, serverError, stderr, this);
    }
}
