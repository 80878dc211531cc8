package dev.agentd.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's "Try it" lines and its Python snippet, read from the file and run exactly as
 * written, so that what README tells is what a user sees.
 */
class ReadmeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARKER = "<!-- tested by examples/src/test/java/dev/agentd/examples/ReadmeTest.java";

    @TempDir
    Path dir;

    /** README's 2 s backoff plus its jitter (retry.jitterRatio 0.1: up to a tenth more, never less). */
    private static String jittered(long delayMs) {
        return delayMs >= 2000 && delayMs <= 2200 ? "2000+jitter" : String.valueOf(delayMs);
    }

    @Test
    void tryItPastedInOneGoTellsTheStoryReadmeTells() throws Exception {
        List<String> lines = codeBlock("json").lines().filter(line -> !line.isBlank()).toList();
        assertEquals(4, lines.size(), "README's Try it block");
        Path agentDir = TestDaemon.agentDir(dir, "{}");
        ProcessBuilder builder = new ProcessBuilder(javaBinary(), "-jar", TestDaemon.jar().toString(), "--no-session")
                .redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().put("AGENTD_DIR", agentDir.toString());
        withoutProviderKeys(builder.environment());
        Process daemon = builder.start();
        try (OutputStream in = daemon.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(daemon.getInputStream(),
                        StandardCharsets.UTF_8))) {
            in.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8)); // a paste: all at once
            in.flush();
            List<JsonNode> seen = CompletableFuture.supplyAsync(() -> readUntilTheRunEnds(out))
                    .get(2, TimeUnit.MINUTES);
            List<String> story = new ArrayList<>();
            for (JsonNode record : seen) {
                String type = record.path("type").asText();
                if (type.equals("response")) {
                    assertTrue(record.path("success").asBoolean(), "every response succeeds: " + record);
                    story.add("response " + record.path("id").asText());
                } else if (type.equals("agent_end")) {
                    story.add("agent_end willRetry=" + record.path("willRetry").asBoolean());
                } else if (type.equals("auto_retry_start")) {
                    story.add("auto_retry_start " + record.path("attempt").asInt() + "/"
                            + record.path("maxAttempts").asInt() + " " + jittered(record.path("delayMs").asLong()) + " "
                            + record.path("errorMessage").asText());
                } else if (type.equals("auto_retry_end")) {
                    story.add("auto_retry_end success=" + record.path("success").asBoolean() + " attempt="
                            + record.path("attempt").asInt());
                } else if (type.equals("message_end")) {
                    JsonNode message = record.path("message");
                    story.add("message_end " + message.path("role").asText() + " "
                            + message.path("content").path(0).path("text").asText(message.path("stopReason").asText()));
                }
            }
            // The prompt answers from the run thread once its preflight passes, while the reader
            // thread answers the follow-up as soon as it is queued: the follow-up's response comes
            // before its own turn, but its place relative to the prompt's answer and the first run's
            // events is not fixed (README: correlate by id).
            int followUp = story.indexOf("response 4");
            assertTrue(followUp > story.indexOf("response 2")
                    && followUp < story.indexOf("message_end user And a second question"), story.toString());
            story.remove(followUp);
            assertEquals(List.of("response 1", "response 2", "response 3",
                    "message_end user Hello!", "message_end assistant error",
                    "agent_end willRetry=true",
                    "auto_retry_start 1/3 2000+jitter 529 overloaded",
                    "message_end assistant Recovered after a retry.",
                    "auto_retry_end success=true attempt=1",
                    "message_end user And a second question",
                    "message_end assistant This is the faux model. You said: And a second question",
                    "agent_end willRetry=false"), story);

            in.write("{\"type\":\"get_messages\",\"id\":\"5\"}\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            JsonNode messages = JSON.readTree(out.readLine());
            while (messages.path("type").asText().equals("agent_settled")) { // pi 1.6: follows the last agent_end
                messages = JSON.readTree(out.readLine());
            }
            assertEquals("5", messages.path("id").asText(), messages.toString());
            assertEquals(4, messages.path("data").path("messages").size(), "README: lists the four messages");
        } finally {
            daemon.destroy();
            daemon.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void pythonSnippetPrintsTheAnswer() throws Exception {
        ExternalProgram run = runPython("{}", null);
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("This is the faux model. You said: Hello!\n", run.stdout());
    }

    @Test
    void pythonSnippetEndsWhenThePromptFailsBeforeRunning() throws Exception {
        ExternalProgram run = runPython("{\"defaultProvider\":\"anthropic\",\"defaultModel\":\"claude-sonnet-4-5\"}", null);
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().startsWith("error: No API key found for anthropic"), run.stdout());
    }

    @Test
    void pythonSnippetEndsWhenRetriesRunOut() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String models = "{\"providers\":{\"local\":{\"baseUrl\":\"http://127.0.0.1:" + closedPort
                + "/v1\",\"api\":\"openai-completions\",\"apiKey\":\"local\",\"models\":[{\"id\":\"m\"}]}}}";
        ExternalProgram run = runPython("{\"defaultProvider\":\"local\",\"defaultModel\":\"m\","
                + "\"retry\":{\"maxRetries\":1,\"baseDelayMs\":10}}", models);
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().startsWith("\nerror: "), run.stdout());
    }

    /** Runs README's Python block as a file, from the repository root, as README says. */
    private ExternalProgram runPython(String settings, String modelsJson) throws Exception {
        assumeTrue(ExternalProgram.available("python3", "--version"), "python3 is not installed");
        Path agentDir = TestDaemon.agentDir(dir, settings);
        if (modelsJson != null) {
            Files.writeString(agentDir.resolve("models.json"), modelsJson);
        }
        Path snippet = Files.writeString(dir.resolve("snippet.py"), codeBlock("python"));
        return ExternalProgram.run(dir, Map.of("AGENTD_DIR", agentDir.toString(), "PYTHONIOENCODING", "utf-8",
                "ANTHROPIC_API_KEY", "", "OPENAI_API_KEY", ""), "python3", snippet.toString());
    }

    /** The first {@code lang} code block after a ReadmeTest marker in README.md. */
    private static String codeBlock(String lang) throws IOException {
        String readme = Files.readString(TestDaemon.repoRoot().resolve("README.md"));
        Matcher block = Pattern.compile(Pattern.quote(MARKER) + "[^\\n]*\\n```" + lang + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(readme);
        assertTrue(block.find(), "README.md has a tested ```" + lang + " block");
        return block.group(1);
    }

    /** Reads records up to the agent_end after which nothing continues; every line must be JSON. */
    private static List<JsonNode> readUntilTheRunEnds(BufferedReader out) {
        List<JsonNode> seen = new ArrayList<>();
        try {
            for (String line; (line = out.readLine()) != null; ) {
                JsonNode record = JSON.readTree(line);
                seen.add(record);
                if (record.path("type").asText().equals("agent_end") && !record.path("willRetry").asBoolean()) {
                    return seen;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("stdout after " + seen, e);
        }
        throw new IllegalStateException("the daemon ended before the run did: " + seen);
    }

    private static void withoutProviderKeys(Map<String, String> env) {
        env.keySet().removeIf(name -> name.endsWith("_API_KEY"));
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
