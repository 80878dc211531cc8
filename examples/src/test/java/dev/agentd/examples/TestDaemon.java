package dev.agentd.examples;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the examples' end-to-end tests share: the built daemon jar and throwaway agent directories. */
public final class TestDaemon {
    /** A scripted transient failure, as a real Anthropic overload looks. */
    public static final String OVERLOADED = "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}";

    private TestDaemon() {}

    /** Set to {@code true} ({@code -Dagentd.examples.skipWithoutJar=true}) to skip, not fail, without the jar. */
    public static final String SKIP_WITHOUT_JAR = "agentd.examples.skipWithoutJar";

    /**
     * rpc-server/target/agentd.jar (built earlier in the reactor: {@code mvn verify} always has it).
     * A missing jar fails the test, so a broken build cannot pass by skipping, unless
     * {@link #SKIP_WITHOUT_JAR} says to skip.
     */
    public static Path jar() {
        Path jar = Path.of("../rpc-server/target/agentd.jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            String problem = "no daemon jar at " + jar + ": build rpc-server first (mvn -pl examples -am verify)";
            assumeTrue(!Boolean.getBoolean(SKIP_WITHOUT_JAR), problem + "; skipped, as " + SKIP_WITHOUT_JAR + " asks");
            fail(problem + ", or pass -D" + SKIP_WITHOUT_JAR + "=true to skip these tests");
        }
        return jar;
    }

    /** The repository root (the tests run in examples/). */
    public static Path repoRoot() {
        return Path.of("..").toAbsolutePath().normalize();
    }

    /** A fresh agent directory (for AGENTD_DIR) holding {@code settingsJson} as its settings.json. */
    public static Path agentDir(Path parent, String settingsJson) throws IOException {
        Path dir = Files.createDirectories(parent.resolve("agent"));
        Files.writeString(dir.resolve("settings.json"), settingsJson);
        return dir;
    }

    /** A faux script file: a JSON array of steps. */
    public static Path script(Path parent, String stepsJson) throws IOException {
        return Files.writeString(parent.resolve("script.json"), stepsJson);
    }

    /** The JSON string literal of {@code text}, for building scripts. */
    public static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
