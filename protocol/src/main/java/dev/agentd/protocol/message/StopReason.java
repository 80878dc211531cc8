package dev.agentd.protocol.message;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why an assistant message ended; {@code pending} (pi 1.x) marks a partial message while it streams
 * ({@code message_start}, the full form's partials) and is never stored.
 */
public enum StopReason {
    PENDING("pending"),
    STOP("stop"),
    LENGTH("length"),
    TOOL_USE("toolUse"),
    ERROR("error"),
    ABORTED("aborted");

    private final String wire;

    StopReason(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** True for the two reasons that mean the reply did not complete. */
    public boolean failed() {
        return this == ERROR || this == ABORTED;
    }
}
