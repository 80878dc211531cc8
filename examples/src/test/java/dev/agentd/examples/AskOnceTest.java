package dev.agentd.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AskOnce end to end against the real daemon jar, on a faux script. */
class AskOnceTest {

    @Test
    void printsTheStreamedAnswer(@TempDir Path dir) throws Exception {
        Path jar = TestDaemon.jar();
        Path script = Files.writeString(dir.resolve("script.json"), "[{\"text\":\"Four, of course.\"}]");
        System.setProperty("agentd.jar", jar.toString());
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            AskOnce.main(new String[] {"What", "is", "2+2?", "--no-session", "--faux-script", script.toString()});
        } finally {
            System.setOut(original);
            System.clearProperty("agentd.jar");
        }
        assertEquals("Four, of course." + System.lineSeparator(), captured.toString(StandardCharsets.UTF_8));
    }
}
