package dev.agentd.protocol.json;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The discriminator value a record carries on the wire ({@code "type"} for commands, events and
 * content blocks, {@code "role"} for messages). One annotation per record is the single source of
 * truth: serialization reads it through {@link WireTypes#nameOf}, decoding builds its lookup table
 * from the sealed family's permitted records.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WireType {
    String value();
}
