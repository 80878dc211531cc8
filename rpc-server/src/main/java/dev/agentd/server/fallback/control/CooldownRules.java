package dev.agentd.server.fallback.control;

import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.recovery.Classification;
import java.util.Locale;

/**
 * How long a model that failed cools down in this session (FALLBACK §5.4): the error class first,
 * then the message text for transients. Plain substring checks on a bounded, lower-cased copy of
 * the text, so untrusted provider text costs linear time.
 */
public final class CooldownRules {
    /** Provider messages can be long; the cause is always named near the start. */
    private static final int SCAN_CHARS = 4096;

    private CooldownRules() {}

    public static CooldownCause of(Classification classification, String errorMessage) {
        String text = errorMessage == null ? ""
                : errorMessage.substring(0, Math.min(errorMessage.length(), SCAN_CHARS)).toLowerCase(Locale.ROOT);
        return switch (classification.errorClass()) {
            case BILLING, QUOTA, USAGE_LIMIT -> CooldownCause.USAGE_BILLING_QUOTA;
            case RATE_LIMITED -> CooldownCause.RATE_LIMIT;
            case TRANSIENT -> transientCause(text);
            default -> classification.scope() != null ? CooldownCause.USAGE_BILLING_QUOTA : CooldownCause.OTHER;
        };
    }

    private static CooldownCause transientCause(String text) {
        if (text.contains("overloaded") || text.contains("capacity")) {
            return CooldownCause.OVERLOADED;
        }
        if (hasServerStatus(text) || text.contains("server") || text.contains("internal error")) {
            return CooldownCause.SERVER_5XX;
        }
        if (text.contains("timed out") || text.contains("timeout") || text.contains("connection")
                || text.contains("econnreset") || text.contains("econnrefused") || text.contains("network")
                || text.contains("socket") || text.contains("terminated") || text.contains("ended without")
                || text.contains("stream ended") || text.contains("fetch failed")) {
            return CooldownCause.TRANSPORT;
        }
        return CooldownCause.OTHER;
    }

    /** A standalone three-digit token 5xx (a 5 inside a longer number, e.g. a request id, is not one). */
    static boolean hasServerStatus(String text) {
        int run = 0;
        for (int i = 0; i <= text.length(); i++) {
            boolean digit = i < text.length() && Character.isDigit(text.charAt(i));
            if (digit) {
                run++;
                continue;
            }
            if (run == 3 && text.charAt(i - 3) == '5') {
                return true;
            }
            run = 0;
        }
        return false;
    }
}
