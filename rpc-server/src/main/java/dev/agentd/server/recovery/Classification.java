package dev.agentd.server.recovery;


import java.util.Objects;

/**
 * One reply's error class, and the usage-limit scope when the reply says a usage or spend limit
 * was reached. The scope is independent of the class: a spend limit is {@link ErrorClass#QUOTA}
 * with scope {@link LimitScope#ACCOUNT}, a usage limit that arrives as a 401 is
 * {@link ErrorClass#CREDENTIAL_REJECTED} with a scope. Null scope: no limit was named. A
 * {@link ErrorClass#TRANSIENT} failure also names its {@link TransientKind} ({@code OTHER} for
 * every other class): decided here once, it travels with the decision to the cooldown rules and
 * to the editor's {@code errorKind}.
 */
public record Classification(ErrorClass errorClass, LimitScope scope, TransientKind transientKind) {
    public Classification {
        Objects.requireNonNull(errorClass, "errorClass");
        transientKind = transientKind == null ? TransientKind.OTHER : transientKind;
    }

    public static Classification of(ErrorClass errorClass) {
        return new Classification(errorClass, null, TransientKind.OTHER);
    }

    /** A class and a usage-limit scope, of no particular transient kind. */
    public static Classification of(ErrorClass errorClass, LimitScope scope) {
        return new Classification(errorClass, scope, TransientKind.OTHER);
    }
}
