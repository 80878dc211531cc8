package dev.agentd.protocol.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** How queued steering or follow-up messages are delivered: all at once, or one per turn. */
public enum QueueMode {
    ALL("all"),
    ONE_AT_A_TIME("one-at-a-time");

    private final String wire;

    QueueMode(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    public static Optional<QueueMode> parse(String text) {
        return Arrays.stream(values()).filter(mode -> mode.wire.equals(text)).findFirst();
    }
}
