package dev.agentd.server.ai;

/**
 * A failed request as a provider reports it: the errorMessage ({@code "<status> <body>"} for HTTP
 * errors, SPEC §6.1) and the structured facts the retry policy reads first.
 */
public record ProviderError(String message, Integer status, String type, Long retryAfterMs, Boolean shouldRetry) {

    public static ProviderError of(String message) {
        return new ProviderError(message, null, null, null, null);
    }
}
