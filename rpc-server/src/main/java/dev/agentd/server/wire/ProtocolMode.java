package dev.agentd.server.wire;

/**
 * A wire dialect on stdin/stdout (SPEC §3, §3.7; ACP): how commands are read and answered. Every
 * dialect writes through the one {@link RpcOutput}; how a dialect learns of session events is its
 * own affair (the pi dialects are handed the daemon session's, ACP subscribes to each session it
 * opens).
 */
public interface ProtocolMode {

    /** Reads and answers commands until stdin ends. */
    void serve();
}
