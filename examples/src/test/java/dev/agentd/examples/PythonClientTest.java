package dev.agentd.examples;

import static dev.agentd.examples.TestDaemon.OVERLOADED;
import static dev.agentd.examples.TestDaemon.quoted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** examples/python/agentd_client.py run with python3 against the built daemon jar (skipped without python3). */
class PythonClientTest {
    private static final String FAILURE = "{\"error\":" + quoted(OVERLOADED) + ",\"status\":529}";

    @TempDir
    Path dir;

    @BeforeAll
    static void needsPython() {
        assumeTrue(ExternalProgram.available("python3", "--version"), "python3 is not installed");
    }

    @Test
    void printsTheTextDeltasSplittingRecordsOnlyOnNewlines() throws Exception {
        // The daemon writes U+2028 unescaped: a reader splitting on more than "\n" would break the JSON.
        String answer = "Line\u2028separator, carriage\rreturn, ünïcödé.";
        Path script = TestDaemon.script(dir, "[{\"text\":" + quoted(answer).replace("\r", "\\r") + "}]");

        ExternalProgram run = ask("{}", "Hi", "--model", "faux/faux-1", "--faux-script", script.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(answer + "\n", run.stdout());
    }

    @Test
    void waitsThroughARetryAndPrintsTheAnswer() throws Exception {
        Path script = TestDaemon.script(dir, "[" + FAILURE + ",{\"text\":\"Recovered.\"}]");

        ExternalProgram run = ask("{\"retry\":{\"baseDelayMs\":10}}", "Hi", "--model", "faux/faux-1",
                "--faux-script", script.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("Recovered.\n", run.stdout());
        assertTrue(run.stderr().contains("[retrying 1/3 in 10 ms: " + OVERLOADED + "]"), run.stderr());
    }

    @Test
    void exitsWithOneWhenTheRetriesRunOut() throws Exception {
        Path script = TestDaemon.script(dir, "[" + FAILURE + "," + FAILURE + "]");

        ExternalProgram run = ask("{\"retry\":{\"maxRetries\":1,\"baseDelayMs\":10}}", "Hi", "--model",
                "faux/faux-1", "--faux-script", script.toString());

        assertEquals(1, run.exitCode());
        assertTrue(run.stderr().contains("error: " + OVERLOADED), run.stderr());
    }

    private ExternalProgram ask(String settings, String... args) throws Exception {
        Map<String, String> env = Map.of("AGENTD_DIR", TestDaemon.agentDir(dir, settings).toString(),
                "PYTHONIOENCODING", "utf-8");
        String[] command = new String[args.length + 2];
        command[0] = "python3";
        command[1] = "examples/python/agentd_client.py";
        System.arraycopy(args, 0, command, 2, args.length);
        return ExternalProgram.run(dir, env, command);
    }
}
