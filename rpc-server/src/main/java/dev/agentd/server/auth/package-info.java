/**
 * Credentials: {@code auth.json}, environment variables, {@code --api-key}, models.json keys;
 * secret value resolution ({@code !command}, env var name, literal); per-session sticky selection
 * and usage-limit blocking for rotation. Never logs a value. May import {@code protocol} and
 * {@code runtime}.
 */
package dev.agentd.server.auth;
