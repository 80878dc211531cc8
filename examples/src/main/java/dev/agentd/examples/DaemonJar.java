package dev.agentd.examples;

import java.nio.file.Path;

/** Where the examples find the daemon: {@code -Dagentd.jar}, else {@code $AGENTD_JAR}, else the repo's build output. */
public final class DaemonJar {
    private DaemonJar() {}

    public static Path locate() {
        String jar = System.getProperty("agentd.jar", System.getenv("AGENTD_JAR"));
        return Path.of(jar != null ? jar : "rpc-server/target/agentd.jar");
    }
}
