package dev.agentd.server.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} for tests, on a free loopback port, persisting nothing
 * ({@code --save '' --appendonly no}), in a scratch directory. {@link #kill()} ends it the hard
 * way (SIGKILL, as a crash or a pulled cable would) and {@link #start()} brings it back on the
 * same port. Tests skip themselves with {@link #available()} when the binary is missing;
 * {@code .ci/run} installs it. Inspection ({@link #dump()}) goes through {@code redis-cli}, so
 * it does not share code with the client under test.
 */
public final class RedisServer implements AutoCloseable {
    private final Path dir;
    private final int port;
    private final Optional<String> password;
    private Process process;

    private RedisServer(Path dir, int port, Optional<String> password) {
        this.dir = dir;
        this.port = port;
        this.password = password;
    }

    /** Whether {@code redis-server} and {@code redis-cli} are on the PATH. */
    public static boolean available() {
        return onPath("redis-server") && onPath("redis-cli");
    }

    /** Starts a server; {@code password} becomes its {@code requirepass}. */
    public static RedisServer start(Path dir, Optional<String> password) throws IOException {
        RedisServer server = new RedisServer(dir, freePort(), password);
        server.start();
        return server;
    }

    public int port() {
        return port;
    }

    /** {@code redis://[:password@]127.0.0.1:port/0}. */
    public String url() {
        return "redis://" + password.map(p -> ":" + p + "@").orElse("") + "127.0.0.1:" + port + "/0";
    }

    /** (Re)starts the server on its port and waits until it answers. */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                "--daemonize", "no"));
        password.ifPresent(p -> command.addAll(List.of("--requirepass", p)));
        process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve("redis.log").toFile()).redirectErrorStream(true).start();
        Waits.await().until(() -> {
            if (!process.isAlive()) {
                throw new AssertionError("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
            }
            return answers();
        });
    }

    /** SIGKILL: no goodbye to the clients. */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    /** Runs one redis-cli command, e.g. {@code cli("SCRIPT", "FLUSH")}; the reply as redis-cli prints it. */
    public String cli(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "--no-auth-warning"));
        password.ifPresent(p -> command.addAll(List.of("-a", p)));
        command.addAll(List.of(args));
        Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = cli.getInputStream().readAllBytes();
        if (!cli.waitFor(10, TimeUnit.SECONDS)) {
            cli.destroyForcibly();
            throw new AssertionError("redis-cli did not finish");
        }
        return new String(out, StandardCharsets.UTF_8).strip();
    }

    /** Every key with its type, TTL and whole value, as text: what a search for secrets reads. */
    public Map<String, String> dump() throws IOException, InterruptedException {
        Map<String, String> all = new TreeMap<>();
        String keys = cli("--scan", "--pattern", "*");
        for (String key : keys.isEmpty() ? new String[0] : keys.split("\n")) {
            String type = cli("TYPE", key);
            String value = switch (type) {
                case "string" -> cli("GET", key);
                case "hash" -> cli("HGETALL", key);
                case "set" -> cli("SMEMBERS", key);
                case "list" -> cli("LRANGE", key, "0", "-1");
                case "zset" -> cli("ZRANGE", key, "0", "-1", "WITHSCORES");
                default -> "<" + type + ">";
            };
            all.put(key, type + " ttl=" + cli("PTTL", key) + " " + value);
        }
        return all;
    }

    /** One inline PING over a plain socket (answers NOAUTH when a password is set: still up). */
    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            int first = in.read();
            return first == '+' || first == '-';
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean onPath(String name) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, name);
            if (Files.isExecutable(candidate)) {
                return true;
            }
        }
        return false;
    }
}
