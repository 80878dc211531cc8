/**
 * Settings files: the global and project {@code settings.json}, their merge, typed reads with
 * defaults and one warning per malformed value, and atomic locked writes of runtime toggles.
 * May import {@code protocol} (the ObjectMapper) only.
 */
package dev.agentd.server.config;
