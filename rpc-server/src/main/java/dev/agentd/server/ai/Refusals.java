package dev.agentd.server.ai;

import java.util.Optional;

/**
 * The error message of a refusal that names its policy category (Anthropic's
 * {@code stop_details.category}: {@code cyber}, {@code bio}, {@code reasoning_extraction}, …),
 * written by the provider mapper and read back by the error classifier — one home for both sides
 * of the format. A category is kept only as a plain token ({@code [a-z0-9_-]}, at most
 * {@value #MAX_CATEGORY_CHARS} characters), so reading it back is unambiguous whatever the
 * explanation after it says.
 */
public final class Refusals {
    static final int MAX_CATEGORY_CHARS = 64;
    private static final String PREFIX = "The model refused to answer (stop_reason: refusal";
    private static final String CATEGORY = ", category: ";

    private Refusals() {}

    /**
     * @param category the provider's category, dropped unless it is a plain token; may be null
     * @param explanation the provider's human-readable text, already redacted and bounded; may be null
     */
    public static String message(String category, String explanation) {
        String token = token(category);
        StringBuilder text = new StringBuilder(PREFIX);
        if (token != null) {
            text.append(CATEGORY).append(token);
        }
        text.append(')');
        if (explanation != null && !explanation.isBlank()) {
            text.append(": ").append(explanation.strip());
        }
        return text.toString();
    }

    /** The category {@link #message} wrote into {@code errorMessage}, if any. */
    public static Optional<String> category(String errorMessage) {
        if (errorMessage == null || !errorMessage.startsWith(PREFIX + CATEGORY)) {
            return Optional.empty();
        }
        int start = PREFIX.length() + CATEGORY.length();
        int end = errorMessage.indexOf(')', start);
        return end < 0 ? Optional.empty() : Optional.ofNullable(token(errorMessage.substring(start, end)));
    }

    private static String token(String category) {
        if (category == null || category.isEmpty() || category.length() > MAX_CATEGORY_CHARS) {
            return null;
        }
        for (int i = 0; i < category.length(); i++) {
            char c = category.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return null;
            }
        }
        return category;
    }
}
