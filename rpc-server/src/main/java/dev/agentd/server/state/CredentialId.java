package dev.agentd.server.state;

/**
 * A credential as stores name it: the provider and a keyed hash of the key (hex), so two
 * processes holding the same key agree on its name and no store ever holds the key.
 */
public record CredentialId(String provider, String hash) {}
