package dev.agentd.server.ai;

/**
 * A failed request as a provider reports it: the errorMessage ({@code "<status> <body>"} for HTTP
 * errors, SPEC §6.1) and the structured facts the retry policy reads first. The text fields are
 * cut here ({@link TextBounds}), so no producer (HTTP, stream mappers, faux scripts) can hand the
 * classifier unbounded text. Producers redact secrets before building one, so a cut never leaves
 * part of a secret behind.
 */
public record ProviderError(String message, Integer status, String type, Long retryAfterMs, Boolean shouldRetry) {

    public ProviderError {
        message = TextBounds.cut(message, TextBounds.MAX_ERROR_MESSAGE_CHARS);
        type = TextBounds.cut(type, TextBounds.MAX_TYPE_CHARS);
    }

    public static ProviderError of(String message) {
        return new ProviderError(message, null, null, null, null);
    }

    /** The model declined (a refusal stop, a safety or content filter): errorType {@code refusal}. */
    public static ProviderError refusal(String message) {
        return new ProviderError(message, null, ErrorTypes.REFUSAL, null, null);
    }

    /** A refusal whose text the model streamed; a blank one reads "The model refused to answer". */
    public static ProviderError refusal(CharSequence streamed) {
        String text = streamed.toString().strip();
        return refusal(text.isEmpty() ? "The model refused to answer" : text);
    }
}
