package dev.agentd.server.recovery;


import java.util.Objects;

/**
 * One reply's error class, and the usage-limit scope when the reply says a usage or spend limit
 * was reached. The scope is independent of the class: a spend limit is {@link ErrorClass#QUOTA}
 * with scope {@link LimitScope#ACCOUNT}, a usage limit that arrives as a 401 is
 * {@link ErrorClass#CREDENTIAL_REJECTED} with a scope. Null scope: no limit was named.
 */
public record Classification(ErrorClass errorClass, LimitScope scope) {
    public Classification {
        Objects.requireNonNull(errorClass, "errorClass");
    }

    public static Classification of(ErrorClass errorClass) {
        return new Classification(errorClass, null);
    }
}
