/**
 * Credentials: {@code auth.json}, environment variables, {@code --api-key}, models.json keys;
 * secret value resolution ({@code !command}, env var name, literal); per-session sticky selection
 * and usage-limit blocking for rotation. Never logs a value. May import {@code protocol},
 * {@code runtime} and {@code state} (where usage-limit blocks are shared).
 */
package dev.agentd.server.auth;
