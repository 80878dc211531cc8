package dev.agentd.server.ai.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tools/catalog/generate.mjs on a tiny checked-in copy of pi's data layout: the output is the
 * checked-in expected file, byte for byte, every run (skipped where node is not installed), and
 * that file reads back as the models pi describes.
 */
class CatalogGeneratorTest {
    private static final Path FIXTURE = Path.of("src/test/resources/catalog-generator");
    private static final Path GENERATOR = Path.of("../tools/catalog/generate.mjs");

    @Test
    void theGeneratorIsDeterministicAndKeepsOnlyWhatAgentdSpeaks(@TempDir Path dir) throws Exception {
        assumeTrue(nodeRuns(), "node is not installed");
        String expected = Files.readString(FIXTURE.resolve("expected.jsonl"), StandardCharsets.UTF_8);
        for (int run = 0; run < 2; run++) {
            Path out = dir.resolve("run" + run + ".jsonl");
            Process node = new ProcessBuilder("node", GENERATOR.toString(), "--pi-ai", FIXTURE.resolve("pi-ai").toString(),
                    "--pi-coding-agent", FIXTURE.resolve("pi-coding-agent").toString(), "--date", "2026-12-02",
                    "--out", out.toString()).redirectErrorStream(true).start();
            String log = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, node.waitFor(), log);
            assertEquals(expected, Files.readString(out, StandardCharsets.UTF_8), "run " + run);
        }
    }

    @Test
    void theExpectedOutputReadsBackAsPiDescribesIt() throws IOException {
        Catalog catalog = Catalog.of(Files.readString(FIXTURE.resolve("expected.jsonl"), StandardCharsets.UTF_8),
                "expected.jsonl");
        // mistral's only model speaks an api agentd lacks; openai's classifier is not a chat model.
        assertEquals(List.of("anthropic", "openai", "amazon-bedrock"), catalog.providers());
        Model x5 = catalog.models("anthropic").get(0);
        assertEquals("claude-x-5", x5.id(), "pi's default first");
        assertEquals(new Model.Cost(5, 25, 0.5, 6.25), x5.cost(), "the base price; tiers are not modelled");
        assertEquals(List.of(ThinkingLevel.LOW, ThinkingLevel.MEDIUM, ThinkingLevel.HIGH, ThinkingLevel.XHIGH,
                ThinkingLevel.MAX), catalog.thinkingLevels(x5).orElseThrow(), "null entries are unsupported levels");
        assertEquals(List.of("gpt-y", "gpt-small"), catalog.models("openai").stream().map(Model::id).toList());
        assertEquals("us.anthropic.claude-x-5", catalog.defaultId("amazon-bedrock").orElseThrow());
        assertEquals("2026-12-02", catalog.header().generated());
    }

    private static boolean nodeRuns() {
        try {
            Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            node.getInputStream().readAllBytes();
            return node.waitFor(30, TimeUnit.SECONDS) && node.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
