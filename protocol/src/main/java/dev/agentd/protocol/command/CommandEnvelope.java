package dev.agentd.protocol.command;

/** A decoded command and the optional {@code id} its response must echo. */
public record CommandEnvelope(String id, Command command) {}
