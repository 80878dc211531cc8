package dev.agentd.protocol.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;

/**
 * The one configured {@link ObjectMapper} of agentd, shared by server and client.
 *
 * <ul>
 *   <li>null optional fields are omitted (pi writes {@code undefined} as absent); a literal
 *       {@code null} is written only where a {@code NullNode} is used on purpose;</li>
 *   <li>unknown fields are ignored; unknown event, message and block types decode to catch-all
 *       records that keep their JSON;</li>
 *   <li>no silent coercion: a number where a string is expected, or {@code "true"} where a boolean
 *       is expected, is an error naming the field;</li>
 *   <li>non-ASCII (U+2028/U+2029 included) is written raw, as {@code JSON.stringify} does.</li>
 * </ul>
 */
public final class Json {
    private static final ObjectMapper MAPPER = build();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper build() {
        SimpleModule families = new SimpleModule("agentd-wire-families");
        families.addDeserializer(AgentEvent.class,
                new FamilyDeserializer<>(AgentEvent.class, "type", AgentEvent.Unknown::new));
        families.addDeserializer(AgentMessage.class,
                new FamilyDeserializer<>(AgentMessage.class, "role", AgentMessage.Unknown::new));
        families.addDeserializer(ContentBlock.class,
                new FamilyDeserializer<>(ContentBlock.class, "type", ContentBlock.Unknown::new));
        families.addDeserializer(Command.class, new FamilyDeserializer<>(Command.class, "type", null));

        JsonMapper mapper = JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .withCoercionConfig(LogicalType.Textual, c -> {
                    c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
                    c.setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
                    c.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
                })
                .withCoercionConfig(LogicalType.Integer, c -> {
                    c.setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
                    c.setCoercion(CoercionInputShape.String, CoercionAction.Fail);
                })
                .withCoercionConfig(LogicalType.Float, c ->
                        c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, c -> {
                    c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
                    c.setCoercion(CoercionInputShape.String, CoercionAction.Fail);
                })
                .addModule(families)
                .build();
        mapper.getFactory().setStreamReadConstraints(JsonTrees.READ_LIMITS);
        return mapper;
    }
}
