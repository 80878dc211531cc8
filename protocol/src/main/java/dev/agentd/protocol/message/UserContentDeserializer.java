package dev.agentd.protocol.message;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.List;

/** pi writes user content either as a plain string or as a block array; both decode to blocks. */
final class UserContentDeserializer extends StdDeserializer<List<ContentBlock>> {
    UserContentDeserializer() {
        super(List.class);
    }

    @Override
    public List<ContentBlock> deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_STRING) {
            return List.of(new ContentBlock.Text(parser.getText()));
        }
        JavaType listType = ctxt.getTypeFactory().constructCollectionType(List.class, ContentBlock.class);
        return ctxt.readValue(parser, listType);
    }
}
