package dev.agentd.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The command side: {@link JsonlReader} framing a stream of command lines, alone and followed by
 * what the daemon does with each line (parse to a tree, decode the command). Costs are per line.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JsonlReaderBench {
    static final int LINES = 1000;
    private byte[] input;

    @Setup
    public void setUp() {
        String[] commands = {
            "{\"type\":\"get_state\",\"id\":\"s%d\"}",
            "{\"type\":\"prompt\",\"id\":\"p%d\",\"message\":\"Refactor the parser in src/main/java, then run the tests\"}",
            "{\"type\":\"set_auto_retry\",\"id\":\"r%d\",\"enabled\":true}",
            "{\"type\":\"abort\",\"id\":\"a%d\"}",
        };
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            text.append(String.format(commands[i % commands.length], i)).append('\n');
        }
        input = text.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public void frameOnly(Blackhole sink) throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(input));
        JsonlReader.Line line;
        while ((line = reader.next()) != null) {
            sink.consume(line);
        }
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public void frameParseDecode(Blackhole sink) throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(input));
        JsonlReader.Line line;
        while ((line = reader.next()) != null) {
            JsonNode node = Json.mapper().readTree(((JsonlReader.Line.Text) line).bytes());
            sink.consume(CommandCodec.decode(node));
        }
    }
}
