package dev.agentd.protocol.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a {@code prompt} sent while the agent is busy should become. */
public enum StreamingBehavior {
    STEER("steer"),
    FOLLOW_UP("followUp");

    private final String wire;

    StreamingBehavior(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }
}
