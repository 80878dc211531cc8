package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.FallbackRig.ALPHA_KEY;
import static dev.agentd.server.e2e.FallbackRig.BETA_KEY;
import static dev.agentd.server.e2e.FallbackRig.alphaText;
import static dev.agentd.server.e2e.FallbackRig.betaRejectedKey;
import static dev.agentd.server.e2e.FallbackRig.retrySettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code <agentDir>/logs/fallback.log} (FALLBACK §7) after a walk whose providers echo their keys
 * back in error text: the log is private (dir 0700, file 0600), NDJSON, tells the walk (the switch
 * and the skip of the rejected provider's other rung), and neither it nor anything else the
 * daemon wrote holds either key — the one in models.json or the one in auth.json.
 */
class FallbackLogIT {
    @TempDir
    Path dir;
    FallbackRig rig;

    @AfterEach
    void tearDown() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void theLogIsPrivateAndNeverHoldsAKey() throws Exception {
        rig = new FallbackRig(dir, retrySettings(0,
                "\"fallbackChains\":{\"alpha/alpha-1\":[\"beta/beta-1\",\"beta/beta-2\",\"alpha/alpha-2\"]}"));
        rig.start("--model", "alpha/alpha-1");
        FallbackIT.assumeServerHasFallback(rig);
        // a hostile gateway quoting the request's key header in its error text
        rig.alpha.enqueue(FakeProviderServer.json(529, AnthropicWire.errorBody("overloaded_error",
                "Overloaded; request had x-api-key: " + ALPHA_KEY + " authorization: Bearer " + ALPHA_KEY), Map.of()),
                alphaText("Alpha two answers."));
        rig.beta.enqueue(betaRejectedKey());

        rig.promptAndSettle("hello");
        assertEquals("alpha/alpha-2", rig.model());
        rig.data("get_fallback_state");
        assertEquals(0, rig.daemon().closeStdinAndWait());

        Path logs = rig.agentDir.resolve("logs");
        Path log = logs.resolve("fallback.log");
        assertTrue(Files.isRegularFile(log), "fallback.log was written");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(logs)));
        List<JsonNode> lines = Files.readAllLines(log).stream().map(FallbackLogIT::parse).toList();
        assertTrue(lines.stream().allMatch(line -> line.has("ts") && line.has("level") && line.has("event")),
                lines.toString());
        assertTrue(lines.stream().anyMatch(line -> "beta/beta-2".equals(line.path("candidate").asText())
                && "rejected-credential".equals(line.path("skipReason").asText())), "the skip is logged: " + lines);
        assertTrue(lines.stream().anyMatch(line -> "alpha/alpha-2".equals(line.path("to").asText())),
                "the switch is logged: " + lines);

        for (String key : List.of(ALPHA_KEY, BETA_KEY)) {
            assertFalse(String.join("\n", rig.daemon().rawLines()).contains(key), "stdout");
            assertFalse(rig.daemon().stderr().contains(key), "stderr");
            try (Stream<Path> files = Files.walk(rig.agentDir)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    String name = file.getFileName().toString();
                    if (name.equals("models.json") || name.equals("auth.json")) {
                        continue; // the user's own configuration
                    }
                    assertFalse(Files.readString(file).contains(key), "found a key in " + file);
                }
            }
        }
    }

    private static JsonNode parse(String line) {
        try {
            return Json.mapper().readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not NDJSON: " + line, e);
        }
    }
}
