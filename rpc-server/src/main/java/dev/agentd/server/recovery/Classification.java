package dev.agentd.server.recovery;


import java.util.Objects;

/**
 * One reply's error class, and the usage-limit scope when the reply says a usage or spend limit
 * was reached. The scope is independent of the class: a spend limit is {@link ErrorClass#QUOTA}
 * with scope {@link LimitScope#ACCOUNT}, a usage limit that arrives as a 401 is
 * {@link ErrorClass#CREDENTIAL_REJECTED} with a scope. Null scope: no limit was named. A
 * {@link ErrorClass#TRANSIENT} failure also names its {@link TransientKind} ({@code OTHER} for
 * every other class): decided here once, it travels with the decision to the cooldown rules and
 * to the editor's {@code errorKind}. A {@link ErrorClass#REFUSAL} names the provider's policy
 * {@code refusalCategory} when it sent one (Anthropic's {@code stop_details.category}); null otherwise.
 */
public record Classification(ErrorClass errorClass, LimitScope scope, TransientKind transientKind,
        String refusalCategory) {
    public Classification {
        Objects.requireNonNull(errorClass, "errorClass");
        transientKind = transientKind == null ? TransientKind.OTHER : transientKind;
    }

    public Classification(ErrorClass errorClass, LimitScope scope, TransientKind transientKind) {
        this(errorClass, scope, transientKind, null);
    }

    /** A refusal, with the policy category the provider named (null: none named). */
    public static Classification refusal(String category) {
        return new Classification(ErrorClass.REFUSAL, null, TransientKind.OTHER, category);
    }

    public static Classification of(ErrorClass errorClass) {
        return new Classification(errorClass, null, TransientKind.OTHER);
    }

    /** A class and a usage-limit scope, of no particular transient kind. */
    public static Classification of(ErrorClass errorClass, LimitScope scope) {
        return new Classification(errorClass, scope, TransientKind.OTHER);
    }
}
