package dev.agentd.examples;

import static dev.agentd.examples.TestDaemon.OVERLOADED;
import static dev.agentd.examples.TestDaemon.quoted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** examples/shell/*.sh run with bash against the built daemon jar (skipped without jq). */
class ShellExamplesTest {
    private static final String FAILURE = "{\"error\":" + quoted(OVERLOADED) + ",\"status\":529}";

    @TempDir
    Path dir;

    @BeforeAll
    static void needsJq() {
        assumeTrue(ExternalProgram.available("jq", "--version"), "jq is not installed");
        assumeTrue(ExternalProgram.available("bash", "--version"), "bash is not installed");
    }

    @Test
    void retryDemoPrintsTheRetryLifecycleAndTheAnswer() throws Exception {
        ExternalProgram run = run("{\"retry\":{\"baseDelayMs\":10}}", "examples/shell/retry-demo.sh");

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("""
                > prompt: Tell me something
                attempt failed: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
                agent_end (willRetry: true)
                auto_retry_start: attempt 1 of 3 in 10 ms
                Recovered after one retry.
                auto_retry_end: success on attempt 1
                agent_end (willRetry: false)
                """, run.stdout());
    }

    @Test
    void askPrintsOnlyTheAnswersTextExactly() throws Exception {
        String answer = "Two lines,\nwith \\backslashes\\, \"quotes\", a\ttab and ünïcödé ✓";
        Path script = TestDaemon.script(dir, "[{\"text\":" + quoted(answer).replace("\n", "\\n").replace("\t", "\\t") + "}]");

        ExternalProgram run = run("{}", "examples/shell/ask.sh", "Say it", "--model", "faux/faux-1",
                "--faux-script", script.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(answer + "\n", run.stdout());
    }

    @Test
    void askWaitsThroughRetriesAndFailsWhenTheyRunOut() throws Exception {
        Path script = TestDaemon.script(dir, "[" + FAILURE + "," + FAILURE + "]");

        ExternalProgram run = run("{\"retry\":{\"maxRetries\":1,\"baseDelayMs\":10}}", "examples/shell/ask.sh",
                "Hello", "--model", "faux/faux-1", "--faux-script", script.toString());

        assertEquals(1, run.exitCode());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("[retrying 1/1 in 10 ms: " + OVERLOADED + "]"), run.stderr());
        assertTrue(run.stderr().contains("error: " + OVERLOADED), run.stderr());
    }

    @Test
    void statePrintsTheGetStateData() throws Exception {
        ExternalProgram run = run("{}", "examples/shell/state.sh", "--model", "faux/faux-2");

        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode state = Json.mapper().readTree(run.stdout());
        assertEquals("faux-2", state.path("model").path("id").asText());
        assertFalse(state.path("isStreaming").asBoolean(true));
        assertTrue(state.path("autoRetryEnabled").asBoolean(false));
    }

    private ExternalProgram run(String settings, String... scriptAndArgs) throws Exception {
        Map<String, String> env = Map.of("AGENTD_DIR", TestDaemon.agentDir(dir, settings).toString());
        String[] command = new String[scriptAndArgs.length + 1];
        command[0] = "bash";
        System.arraycopy(scriptAndArgs, 0, command, 1, scriptAndArgs.length);
        return ExternalProgram.run(dir, env, command);
    }
}
