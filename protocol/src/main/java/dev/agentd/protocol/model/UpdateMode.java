package dev.agentd.protocol.model;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How much each {@code message_update} carries: {@code full} repeats the partial message (pi's
 * default, O(n²) bytes over a reply), {@code delta} sends only the change.
 */
public enum UpdateMode {
    FULL("full"),
    DELTA("delta");

    private final String wire;

    UpdateMode(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }
}
