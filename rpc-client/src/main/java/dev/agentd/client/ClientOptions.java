package dev.agentd.client;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The frozen settings of one {@link RpcClient}; {@link Draft} is what its builder fills in. */
record ClientOptions(
        List<String> command,
        Map<String, String> env,
        Path cwd,
        InputStream fromDaemon,
        OutputStream toDaemon,
        Duration requestTimeout,
        Duration startTimeout,
        Duration closeTimeout,
        Duration retryGrace,
        Dialect dialect,
        Consumer<String> onProtocolError,
        Consumer<Throwable> onListenerError) {

    boolean attached() {
        return fromDaemon != null;
    }

    static final class Draft {
        List<String> command;
        final List<String> args = new ArrayList<>();
        final Map<String, String> env = new LinkedHashMap<>();
        Path cwd;
        InputStream fromDaemon;
        OutputStream toDaemon;
        Duration requestTimeout = Duration.ofSeconds(30);
        Duration startTimeout = Duration.ofSeconds(30);
        Duration closeTimeout = Duration.ofSeconds(5);
        Duration retryGrace = Duration.ofMillis(250);
        Dialect dialect = Dialect.RPC;
        Consumer<String> onProtocolError = problem -> { };
        Consumer<Throwable> onListenerError = failure -> { };

        ClientOptions freeze() {
            boolean attached = fromDaemon != null;
            if (attached == (command != null)) {
                throw new IllegalStateException("Configure exactly one of command(...)/jar(...) or streams(...)");
            }
            if (attached && (!args.isEmpty() || !env.isEmpty() || cwd != null)) {
                throw new IllegalStateException("args, env and cwd apply to a spawned daemon only");
            }
            List<String> fullCommand = null;
            if (!attached) {
                fullCommand = new ArrayList<>(command);
                fullCommand.addAll(args);
                if (dialect != Dialect.RPC && !choosesMode(fullCommand)) {
                    fullCommand.add("--mode");
                    fullCommand.add(dialect.mode());
                }
                if (fullCommand.isEmpty()) {
                    throw new IllegalStateException("Empty command line");
                }
            }
            return new ClientOptions(fullCommand == null ? null : List.copyOf(fullCommand),
                    new LinkedHashMap<>(env), cwd, fromDaemon, toDaemon, requestTimeout, startTimeout, closeTimeout,
                    retryGrace, dialect, onProtocolError, onListenerError);
        }
    }

    /** Whether a command line already passes {@code --mode} (as {@code --mode X} or {@code --mode=X}). */
    private static boolean choosesMode(List<String> command) {
        return command.stream().anyMatch(arg -> arg.equals("--mode") || arg.startsWith("--mode="));
    }

    static Duration nonNegative(Duration duration, String name) {
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException(name + " must be a non-negative duration, got " + duration);
        }
        return duration;
    }

    /** The java launcher of the running JVM, so a spawned daemon runs on the same Java. */
    static String javaBinary() {
        Path home = Path.of(System.getProperty("java.home"), "bin");
        for (String name : List.of("java", "java.exe")) {
            if (Files.isExecutable(home.resolve(name))) {
                return home.resolve(name).toString();
            }
        }
        return ProcessHandle.current().info().command().orElse("java");
    }
}
