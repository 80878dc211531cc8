package dev.agentd.server.state;

import java.util.Optional;

/**
 * @param kind {@code memory}, {@code file} or {@code redis}
 * @param shared false while a shared store is unreachable and process-local state stands in
 * @param warning why it is not shared, secret-free (never a password or URL credential)
 */
public record StoreStatus(String kind, boolean shared, Optional<String> warning) {
    public StoreStatus {
        warning = warning == null ? Optional.empty() : warning;
    }
}
