/**
 * Settings files: the global and project {@code settings.json}, their merge (with maps a layer
 * replaces wholesale), key paths as segments, typed reads with defaults and one warning per
 * malformed value, and atomic locked writes ({@code LockedJsonFile}) of runtime toggles and of
 * global-only values.
 * May import {@code protocol} (the ObjectMapper) and {@code runtime} (the own-file check).
 */
package dev.agentd.server.config;
