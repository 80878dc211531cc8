package dev.agentd.server.cli;

import java.nio.file.Path;
import java.util.Map;

/** Where agentd keeps its files (SPEC §2): {@code $AGENTD_DIR} or {@code ~/.agentd}, and {@code <cwd>/.agentd}. */
public record AgentDirs(Path agentDir, Path projectDir) {

    public static AgentDirs resolve(Map<String, String> env, Path cwd) {
        String configured = env.get("AGENTD_DIR");
        Path agentDir;
        if (configured != null && !configured.isBlank()) {
            agentDir = Path.of(configured.startsWith("~/")
                    ? System.getProperty("user.home") + configured.substring(1) : configured);
        } else {
            agentDir = Path.of(System.getProperty("user.home"), ".agentd");
        }
        return new AgentDirs(agentDir.toAbsolutePath(), cwd.resolve(".agentd").toAbsolutePath());
    }

    public Path globalSettings() {
        return agentDir.resolve("settings.json");
    }

    public Path projectSettings() {
        return projectDir.resolve("settings.json");
    }

    public Path authFile() {
        return agentDir.resolve("auth.json");
    }

    public Path modelsFile() {
        return agentDir.resolve("models.json");
    }

    public Path sessionsDir() {
        return agentDir.resolve("sessions");
    }
}
