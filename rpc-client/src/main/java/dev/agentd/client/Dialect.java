package dev.agentd.client;

import java.util.function.Supplier;

/** The wire dialect the daemon speaks (its {@code --mode}). */
public enum Dialect {
    /** pi-compatible JSONL records (SPEC §3), {@code --mode rpc}: the default. */
    RPC("rpc", PiRpcDialect::new),
    /**
     * JSON-RPC 2.0 over the same framing (SPEC §3.7), {@code --mode jsonrpc}: a spawned daemon gets
     * {@code --mode jsonrpc} added to its arguments unless they already choose a mode.
     */
    JSONRPC("jsonrpc", JsonRpcDialect::new);

    private final String mode;
    private final Supplier<WireDialect> wire;

    Dialect(String mode, Supplier<WireDialect> wire) {
        this.mode = mode;
        this.wire = wire;
    }

    /** The daemon's {@code --mode} value for this dialect. */
    public String mode() {
        return mode;
    }

    WireDialect wire() {
        return wire.get();
    }
}
