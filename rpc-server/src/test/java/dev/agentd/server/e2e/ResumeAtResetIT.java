package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.FallbackRig.alphaText;
import static dev.agentd.server.e2e.FallbackRig.modelsAsked;
import static dev.agentd.server.e2e.FallbackRig.retrySettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume at the window reset (FALLBACK §11) through the real jar over HTTP: a usage limit naming
 * its reset 3 s ahead, one credential, no chain. Waits are lower bounds from the provider's side
 * (a loaded machine may wait longer, never shorter).
 */
class ResumeAtResetIT {
    private static final double SLACK = 0.95;
    /** A 3 s reset is over {@code maxRetryDelayMs}: without resuming the chain would fail at once. */
    private static final String SETTINGS = retrySettings(3, "\"maxRetryDelayMs\":1000");

    @TempDir
    Path dir;
    FallbackRig rig;

    @AfterEach
    void tearDown() {
        if (rig != null) {
            rig.closeCheckingStdout();
        }
    }

    private static FakeProviderServer.Reply usageLimitFor3s() {
        return FakeProviderServer.json(429, AnthropicWire.errorBody("rate_limit_error",
                "You have reached your usage limit for this plan"), Map.of("retry-after", "3"));
    }

    @Test
    void theTurnContinuesAtTheReset() throws Exception {
        rig = new FallbackRig(dir, SETTINGS);
        rig.start("--model", "alpha/alpha-1");
        rig.alpha.enqueue(usageLimitFor3s(), alphaText("After the reset."));
        int from = rig.promptAndSettle("hello");

        JsonNode resume = rig.events(from, "retry_resume_scheduled").get(0);
        assertEquals("alpha/alpha-1", resume.path("selector").asText());
        assertEquals(3000, resume.path("waitMs").asLong());
        assertEquals("usage_limit", resume.path("reason").asText());
        assertTrue(resume.path("resumeAt").asLong() > 1_700_000_000_000L, resume.toString());
        assertEquals(3000, rig.events(from, "auto_retry_start").get(0).path("delayMs").asLong());
        assertEquals(List.of("alpha-1", "alpha-1"), modelsAsked(rig.alpha));
        long gap = (rig.alpha.arrivalNanos().get(1) - rig.alpha.arrivalNanos().get(0)) / 1_000_000;
        assertTrue(gap >= 3000 * SLACK, "the provider saw the resumed request only " + gap + " ms later");
        assertTrue(rig.events(from, "auto_retry_end").get(0).path("success").asBoolean());
    }

    @Test
    void aDaemonKilledDuringTheWaitResumesAfterContinue() throws Exception {
        rig = new FallbackRig(dir, SETTINGS);
        rig.start("--model", "alpha/alpha-1");
        rig.alpha.enqueue(usageLimitFor3s(), alphaText("After the restart."));
        rig.call("prompt", "message", "hello");
        long resumeAt = rig.awaitEvent("retry_resume_scheduled", 0).path("resumeAt").asLong();
        JsonNode pending = rig.data("get_state").path("retry").path("resume");
        assertEquals(resumeAt, pending.path("resumeAt").asLong(), "get_state shows the pending resume: " + pending);
        assertEquals("usage_limit", pending.path("reason").asText());
        rig.daemon().process().destroyForcibly(); // SIGKILL during the wait
        assertTrue(rig.daemon().process().waitFor(20, TimeUnit.SECONDS));

        rig.start("--continue");
        JsonNode again = rig.awaitEvent("retry_resume_scheduled", 0);
        assertEquals(resumeAt, again.path("resumeAt").asLong(), "the same reset, re-armed from the file");
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> !rig.events(0, "auto_retry_end").isEmpty());
        assertTrue(rig.events(0, "auto_retry_end").get(0).path("success").asBoolean(),
                rig.events(0, "auto_retry_end").toString());
        assertEquals(2, rig.alpha.requestCount());
        assertTrue(System.currentTimeMillis() >= resumeAt, "not before the reset");
        JsonNode messages = rig.data("get_messages").path("messages");
        assertTrue(messages.toString().contains("After the restart."), messages.toString());
    }
}
