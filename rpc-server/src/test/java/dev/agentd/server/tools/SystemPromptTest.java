package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.ai.ToolDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemPromptTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-14T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path cwd;

    private List<ToolDefinition> definitions(List<String> names) {
        return Tools.create(cwd, names).stream().map(Tool::definition).toList();
    }

    @Test
    void namesTheToolsTheCwdAndTheDate() {
        String prompt = new SystemPrompt(cwd, definitions(Tools.DEFAULT), CLOCK).build();
        for (String name : Tools.DEFAULT) {
            assertTrue(prompt.contains("\n- " + name + ": "), name);
        }
        assertFalse(prompt.contains("- grep:"));
        assertTrue(prompt.contains("Current working directory: " + cwd.toAbsolutePath().normalize()), prompt);
        assertTrue(prompt.contains("Current date: 2026-03-14"), prompt);
        assertTrue(prompt.contains("Use bash for file operations"), prompt);
        assertFalse(prompt.contains("# Project context"));
    }

    @Test
    void guidanceFollowsTheEnabledTools() {
        String prompt = new SystemPrompt(cwd, definitions(Tools.KNOWN), CLOCK).build();
        assertTrue(prompt.contains("Prefer grep, find and ls over bash"), prompt);
        String none = new SystemPrompt(cwd, List.of(), CLOCK).build();
        assertTrue(none.contains("No tools are available"), none);
        String custom = new SystemPrompt(cwd, List.of(new ToolDefinition("echo", "Echoes text. More detail.", null)),
                CLOCK).build();
        assertTrue(custom.contains("- echo: Echoes text.\n"), custom);
    }

    @Test
    void agentsMdIsAppendedWhenPresentAndBounded() throws Exception {
        Files.writeString(cwd.resolve("AGENTS.md"), "Always run mvn -o.\n");
        String prompt = new SystemPrompt(cwd, definitions(Tools.DEFAULT), CLOCK).build();
        assertTrue(prompt.contains("# Project context"), prompt);
        assertTrue(prompt.endsWith("Always run mvn -o.\n"), prompt);

        Files.writeString(cwd.resolve("AGENTS.md"), "x".repeat(100_000));
        String big = new SystemPrompt(cwd, List.of(), CLOCK).build();
        assertTrue(big.contains("x".repeat(64 * 1024) + "\n[AGENTS.md truncated at 64.0KB]"));
        assertFalse(big.contains("x".repeat(64 * 1024 + 1)));
    }
}
