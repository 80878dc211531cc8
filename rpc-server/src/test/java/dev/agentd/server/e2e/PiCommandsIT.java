package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15 point 6 through the real jar: export_html (rendered offline in headless Chromium), extension_ui_response. */
class PiCommandsIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
    }

    private void start() throws IOException {
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(dir.resolve("script.json"), "[{\"text\":\"The answer is <b>42</b> & more\"}]");
        daemon = DaemonProcess.start(agent, work, "--faux-script", dir.resolve("script.json").toString(),
                "--no-session");
    }

    @Test
    void exportHtmlWritesAPageThatRendersInABrowserWithoutNetwork() throws Exception {
        start();
        daemon.send(command("prompt", "p", "message", "What is <i>it</i>?"));
        daemon.awaitNth("agent_end", 1);
        JsonNode exported = daemon.request(command("export_html", "e", "outputPath", "out/page.html"));
        assertTrue(exported.path("success").asBoolean(), exported.toString());
        assertEquals("out/page.html", exported.path("data").path("path").asText());
        Path page = dir.resolve("work/out/page.html");
        String html = Files.readString(page);
        assertTrue(html.contains("The answer is &lt;b&gt;42&lt;/b&gt; &amp; more"), html);
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("<script"), html);

        JsonNode byDefault = daemon.request(command("export_html", "d"));
        assertTrue(Files.isRegularFile(dir.resolve("work").resolve(byDefault.path("data").path("path").asText())));

        Path chromium = ExternalTools.find("chromium", "chromium-browser").orElse(null);
        assumeTrue(chromium != null, "chromium is not installed");
        ExternalTools.Result dom = ExternalTools.run(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + dir.resolve("chromium-profile"),
                "--dump-dom", page.toUri().toString()), dir, Map.of(), 120);
        assertEquals(0, dom.exitCode(), ExternalTools.tail(dom.stderr()));
        // the browser parsed the escaped text back into the session's words, as text, not markup
        assertTrue(dom.stdout().contains("The answer is &lt;b&gt;42&lt;/b&gt; &amp; more"), dom.stdout());
        assertTrue(dom.stdout().contains("What is &lt;i&gt;it&lt;/i&gt;?"), dom.stdout());
        assertFalse(dom.stdout().contains("<b>42</b>"));
    }

    @Test
    void anExtensionUiResponseIsAcceptedWithoutAnAnswer() throws IOException {
        start();
        daemon.send("{\"type\":\"extension_ui_response\",\"id\":\"dialog-1\",\"confirmed\":true}");
        JsonNode state = daemon.request(command("get_state", "after"));
        assertTrue(state.path("success").asBoolean());
        assertTrue(daemon.records().stream().noneMatch(node -> "dialog-1".equals(node.path("id").asText())),
                daemon.records().toString());
    }
}
