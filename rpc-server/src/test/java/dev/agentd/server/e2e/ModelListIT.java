package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15 point 7: model lists hold the configured models; faux only when nothing else or asked for. */
class ModelListIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;
    Path agentDir;
    Path work;

    @BeforeEach
    void setUp() throws IOException {
        agentDir = Files.createDirectories(dir.resolve("agent"));
        work = Files.createDirectories(dir.resolve("work"));
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
    }

    private void configure() throws IOException {
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"mock":{"baseUrl":"http://127.0.0.1:9","api":"anthropic-messages","apiKey":"literal-key",
                  "models":[{"id":"m1"},{"id":"m2","reasoning":true}]}}}
                """);
    }

    private List<String> available() throws IOException {
        List<String> ids = new ArrayList<>();
        daemon.request(command("get_available_models", "a")).path("data").path("models")
                .forEach(model -> ids.add(model.path("provider").asText() + "/" + model.path("id").asText()));
        return ids;
    }

    private String cycle(String id) throws IOException {
        JsonNode model = daemon.request(command("cycle_model", id)).path("data").path("model");
        return model.path("provider").asText() + "/" + model.path("id").asText();
    }

    @Test
    void configuredModelsOnlyAndCycleStaysAmongThem() throws IOException {
        configure();
        daemon = DaemonProcess.start(agentDir, work, "--no-session", "--model", "mock/m2");
        assertEquals(List.of("mock/m1", "mock/m2"), available().stream().filter(id -> !id.startsWith("anthropic/")
                && !id.startsWith("openai/")).toList());
        assertEquals(List.of(), available().stream().filter(id -> id.startsWith("faux/")).toList());
        assertEquals("mock/m1", cycle("c1"));
        assertEquals("mock/m2", cycle("c2"));
    }

    @Test
    void withNothingConfiguredTheFauxModelsAreListed() throws IOException {
        daemon = DaemonProcess.start(agentDir, work, "--no-session");
        assertEquals(List.of("faux/faux-1", "faux/faux-2"), available());
    }

    @Test
    void askingForFauxByNameListsItNextToTheConfiguredOnes() throws IOException {
        configure();
        daemon = DaemonProcess.start(agentDir, work, "--no-session", "--model", "faux/faux-1");
        List<String> ids = available();
        assertEquals(List.of("mock/m1", "mock/m2", "faux/faux-1", "faux/faux-2"),
                ids.stream().filter(id -> id.startsWith("mock/") || id.startsWith("faux/")).toList());
        // set_model by name reaches a faux model from a configured one
        daemon.request(command("set_model", "s", "provider", "mock", "modelId", "m1"));
        assertEquals(true, daemon.request(command("set_model", "f", "provider", "faux", "modelId", "faux-2"))
                .path("success").asBoolean());
    }
}
