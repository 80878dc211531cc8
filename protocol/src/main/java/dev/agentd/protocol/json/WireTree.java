package dev.agentd.protocol.json;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A record that gives its own JSON tree, which {@link dev.agentd.protocol.jsonl.JsonlWriter} writes
 * iteratively instead of through the mapper's recursion (and its nesting limit): for records whose
 * payload can be as deep as a session is long.
 */
public interface WireTree {
    JsonNode tree();
}
