package dev.agentd.client;

import java.util.function.Supplier;

/** The wire dialect the daemon speaks (its {@code --mode}). */
public enum Dialect {
    /** pi-compatible JSONL records (SPEC §3), {@code --mode rpc}: the default. */
    RPC(PiRpcDialect::new);

    // A JSON-RPC 2.0 constant (SPEC §3.7) only needs its own WireDialect; nothing else changes.
    private final Supplier<WireDialect> wire;

    Dialect(Supplier<WireDialect> wire) {
        this.wire = wire;
    }

    WireDialect wire() {
        return wire.get();
    }
}
