package dev.agentd.protocol.response;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a provider's rate-limit headers said about one selector ({@code provider/model}) on its
 * latest reply, successful or not ({@code get_state.data.rateLimits}). Every part is absent when
 * the provider did not send it; a provider that sends none has no entry at all.
 *
 * @param requests the request window ({@code anthropic-ratelimit-requests-*}, {@code x-ratelimit-*-requests})
 * @param tokens the token window ({@code anthropic-ratelimit-tokens-*}, {@code x-ratelimit-*-tokens})
 * @param inputTokens Anthropic's input-token window
 * @param outputTokens Anthropic's output-token window
 * @param windows Anthropic's unified plan windows by name ({@code 5h}, {@code 7d}, {@code 7d_opus} …)
 * @param status Anthropic's unified status ({@code allowed}, {@code allowed_warning}, {@code rejected})
 * @param utilization the fullest window's utilization, 0..1: what thresholds and the pre-emptive
 *     switch look at
 * @param updatedAt when the reply carrying these headers arrived (epoch ms)
 */
public record RateLimits(String selector, Window requests, Window tokens, Window inputTokens, Window outputTokens,
        Map<String, Window> windows, String status, Double utilization, long updatedAt) {

    public RateLimits {
        // sorted by name, so the wire order is stable
        windows = windows == null || windows.isEmpty() ? null : Collections.unmodifiableMap(new TreeMap<>(windows));
    }

    /** The same figures for {@code selector}. */
    public RateLimits withSelector(String selector) {
        return new RateLimits(selector, requests, tokens, inputTokens, outputTokens, windows, status, utilization,
                updatedAt);
    }

    /**
     * One window.
     *
     * @param limit the window's size (requests or tokens), when sent
     * @param remaining what is left of it, when sent
     * @param resetAt when it is full again (epoch ms), when sent
     * @param utilization 0..1: sent (unified windows) or {@code 1 - remaining/limit}
     * @param status the unified window's status, when sent
     */
    public record Window(Long limit, Long remaining, Long resetAt, Double utilization, String status) {}
}
