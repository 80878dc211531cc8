package dev.agentd.protocol.message;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why an assistant message ended. */
public enum StopReason {
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
