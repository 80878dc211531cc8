package dev.agentd.protocol.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reasoning effort requested from a model, lowest first (the order clamping and cycling use);
 * {@code off} disables reasoning, {@code max} is the most a model offers beyond {@code xhigh}.
 */
public enum ThinkingLevel {
    OFF("off"),
    MINIMAL("minimal"),
    LOW("low"),
    MEDIUM("medium"),
    HIGH("high"),
    XHIGH("xhigh"),
    MAX("max");

    private final String wire;

    ThinkingLevel(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    public static Optional<ThinkingLevel> parse(String text) {
        return Arrays.stream(values()).filter(level -> level.wire.equals(text)).findFirst();
    }
}
