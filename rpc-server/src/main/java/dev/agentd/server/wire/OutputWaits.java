package dev.agentd.server.wire;

/**
 * Told when a producer starts and stops waiting for room in the output queue, i.e. for the client
 * to read (cli points these at {@code runtime.OutputBackpressure}, which the stream watchdogs read).
 */
public record OutputWaits(Runnable waiting, Runnable resumed) {
    public static final OutputWaits NONE = new OutputWaits(() -> { }, () -> { });
}
