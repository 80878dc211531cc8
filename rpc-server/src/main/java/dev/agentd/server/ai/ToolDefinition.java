package dev.agentd.server.ai;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool as announced to a model: name, description and JSON schema of its arguments. */
public record ToolDefinition(String name, String description, JsonNode parameters) {}
