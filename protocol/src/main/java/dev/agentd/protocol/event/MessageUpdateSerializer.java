package dev.agentd.protocol.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.agentd.protocol.json.Json;
import java.io.IOException;

/**
 * Writes a {@code message_update}: {@code type}, {@code usage} and {@code message} when present, then
 * the change. The full form (pi 0.73's) repeats the partial message twice ({@code message} and
 * {@code assistantMessageEvent.partial}); it is serialized once here, to UTF-8, and those bytes are
 * copied into both places, so a reply costs one serialization per delta, not two (and no second
 * encoding).
 */
final class MessageUpdateSerializer extends StdSerializer<AgentEvent.MessageUpdate> {
    MessageUpdateSerializer() {
        super(AgentEvent.MessageUpdate.class);
    }

    @Override
    public void serialize(AgentEvent.MessageUpdate update, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
        RawJson partialJson = update.message() == null ? null
                : new RawJson(Json.mapper().writeValueAsBytes(update.message()));
        AssistantMessageEvent event = update.assistantMessageEvent();
        gen.writeStartObject();
        gen.writeStringField("type", update.type());
        if (update.usage() != null) {
            gen.writeFieldName("usage");
            provider.defaultSerializeValue(update.usage(), gen);
        }
        if (partialJson != null) {
            gen.writeFieldName("message");
            gen.writeRawValue(partialJson);
        }
        if (event != null) {
            gen.writeFieldName("assistantMessageEvent");
            gen.writeStartObject();
            gen.writeStringField("type", event.type());
            gen.writeNumberField("contentIndex", event.contentIndex());
            if (event.id() != null) {
                gen.writeStringField("id", event.id());
            }
            if (event.toolName() != null) {
                gen.writeStringField("toolName", event.toolName());
            }
            if (event.delta() != null) {
                gen.writeStringField("delta", event.delta());
            }
            if (event.content() != null) {
                gen.writeStringField("content", event.content());
            }
            if (event.toolCall() != null) {
                gen.writeFieldName("toolCall");
                provider.defaultSerializeValue(event.toolCall(), gen);
            }
            if (event.partial() != null) {
                gen.writeFieldName("partial");
                if (event.partial() == update.message() && partialJson != null) {
                    gen.writeRawValue(partialJson);
                } else {
                    provider.defaultSerializeValue(event.partial(), gen);
                }
            }
            gen.writeEndObject();
        }
        gen.writeEndObject();
    }
}
