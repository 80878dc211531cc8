package dev.agentd.server.fallback.control;

import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.recovery.Classification;

/**
 * How long a model that failed cools down in this session (FALLBACK §5.4): a table on the
 * failure's classification, decided once by the recovery decision (the transient kind included),
 * so no provider text is read again here.
 */
final class CooldownRules {
    private CooldownRules() {}

    static CooldownCause of(Classification classification) {
        return switch (classification.errorClass()) {
            case BILLING, QUOTA, USAGE_LIMIT -> CooldownCause.USAGE_BILLING_QUOTA;
            case RATE_LIMITED -> CooldownCause.RATE_LIMIT;
            case TRANSIENT -> switch (classification.transientKind()) {
                case OVERLOADED -> CooldownCause.OVERLOADED;
                case UNAVAILABLE, SERVER -> CooldownCause.SERVER_5XX;
                case TRANSPORT -> CooldownCause.TRANSPORT;
                case OTHER -> CooldownCause.OTHER;
            };
            case CREDENTIAL_REJECTED, ACCESS_DENIED, HARD, REFUSAL, OVERFLOW, ABORTED, NONE ->
                    classification.scope() != null ? CooldownCause.USAGE_BILLING_QUOTA : CooldownCause.OTHER;
        };
    }
}
