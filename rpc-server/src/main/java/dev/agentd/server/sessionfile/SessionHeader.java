package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The first line of a session file. */
@JsonPropertyOrder({"type", "version", "id", "timestamp", "cwd", "parentSession"})
public record SessionHeader(int version, String id, String timestamp, String cwd, String parentSession) {
    public static final int VERSION = 3;

    @JsonProperty("type")
    public String type() {
        return "session";
    }
}
