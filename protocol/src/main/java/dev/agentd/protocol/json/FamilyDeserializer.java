package dev.agentd.protocol.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.function.Function;

/**
 * Decodes a sealed wire family by its discriminator field. Known names decode to their record
 * (unknown fields ignored); an unknown or missing name decodes through {@code unknown}, which
 * keeps the JSON so nothing a newer peer sends is lost (or, when {@code unknown} is null, fails).
 * The name table is looked up at the first decode, not when the mapper is built: a daemon that
 * only writes events never pays for scanning their family.
 */
final class FamilyDeserializer<T> extends StdDeserializer<T> {
    private final Class<T> family;
    private final String discriminator;
    private final Function<ObjectNode, T> unknown;

    FamilyDeserializer(Class<T> family, String discriminator, Function<ObjectNode, T> unknown) {
        super(family);
        this.family = family;
        this.discriminator = discriminator;
        this.unknown = unknown;
    }

    @Override
    public T deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
        JsonNode node = ctxt.readTree(parser);
        if (!(node instanceof ObjectNode object)) {
            return ctxt.reportInputMismatch(this, "expected a JSON object for %s", handledType().getSimpleName());
        }
        JsonNode name = object.get(discriminator);
        Class<? extends T> type = name != null && name.isTextual()
                ? WireTypes.registry(family).get(name.textValue()) : null;
        if (type == null) {
            if (unknown == null) {
                return ctxt.reportInputMismatch(this, "unknown %s '%s'", discriminator,
                        name == null ? null : name.asText());
            }
            return unknown.apply(object);
        }
        return ctxt.readTreeAsValue(object, type);
    }
}
