package dev.agentd.protocol.message;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * Writes a {@link Usage.Cost} as pi (JavaScript) does: a whole amount as an integer ({@code 0},
 * not {@code 0.0}). Usage rides on every delta-form {@code message_update}, where the five
 * {@code .0}s alone made agentd's stream longer than pi's; readers see the same numbers.
 */
final class CostSerializer extends StdSerializer<Usage.Cost> {
    /** Below 2^53 every whole double is exactly a long. */
    private static final double EXACT = 9_007_199_254_740_992d;

    CostSerializer() {
        super(Usage.Cost.class);
    }

    @Override
    public void serialize(Usage.Cost cost, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeStartObject();
        write(gen, "input", cost.input());
        write(gen, "output", cost.output());
        write(gen, "cacheRead", cost.cacheRead());
        write(gen, "cacheWrite", cost.cacheWrite());
        write(gen, "total", cost.total());
        gen.writeEndObject();
    }

    private static void write(JsonGenerator gen, String name, double value) throws IOException {
        gen.writeFieldName(name);
        if (value == Math.rint(value) && Math.abs(value) < EXACT) {
            gen.writeNumber((long) value);
        } else {
            gen.writeNumber(value);
        }
    }
}
