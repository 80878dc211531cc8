package dev.agentd.server.e2e;

import dev.agentd.server.testing.http.FakeProviderServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fake OpenAI-compatible server as the models.json provider {@code local}, model {@code local/local-model}. */
final class LocalProvider {
    static final String MODEL = "local/local-model";

    private LocalProvider() {}

    /** Creates {@code dir/agent} with a models.json pointing at {@code server} with {@code apiKey}; returns it. */
    static Path agentDir(Path dir, FakeProviderServer server, String apiKey) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"%s",
                  "models":[{"id":"local-model","contextWindow":32000,"maxTokens":4096}]}}}
                """.formatted(server.baseUrl(), apiKey));
        return agentDir;
    }
}
