package dev.agentd.examples.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.examples.TestDaemon;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole console chat program with piped input (line mode) against the real daemon. */
class ConsoleChatTest {

    @AfterEach
    void forgetJar() {
        System.clearProperty("agentd.jar");
    }

    @Test
    void pipedLinesAreAnsweredBeforeTheProgramEnds(@TempDir Path dir) throws Exception {
        System.setProperty("agentd.jar", TestDaemon.jar().toString());
        Path script = TestDaemon.script(dir, "[{\"text\":\"Four, of course.\"}]");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int status = ConsoleChat.run(new String[] {"--no-session", "--model", "faux/faux-1", "--faux-script",
                script.toString()}, new ByteArrayInputStream("What is 2+2?\n".getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), false);

        assertEquals(0, status);
        assertEquals("Four, of course.\n", out.toString(StandardCharsets.UTF_8));
    }
}
