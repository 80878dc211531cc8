package dev.agentd.server.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Entry point. Before anything else, takes stdout for the protocol and points the JVM's standard
 * output stream at stderr, so a stray print anywhere (ours or a library's) can never corrupt the
 * record stream.
 * Exit codes (SPEC §2): 0 after an orderly shutdown, 2 on bad arguments, 1 on a startup failure.
 * {@code agentd trust [DIR]} records a trusted project and exits ({@link TrustCommand}).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        LogLevel.Choice level = LogLevel.choose(args, System.getenv());
        LogLevel.apply(level); // before the first logger: slf4j-simple reads the level once
        StartupTrace.mark("main");
        OutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        if (level.problem() != null) {
            System.err.println("agentd: " + level.problem());
        }
        CliOptions options;
        try {
            Optional<Path> trust = CliOptions.trustTarget(args);
            if (trust.isPresent()) {
                // Not a protocol session either: one line on stdout, like --version.
                Path cwd = Path.of("").toAbsolutePath();
                Path global = AgentDirs.resolve(System.getenv(), cwd).globalSettings();
                System.exit(TrustCommand.run(trust.get(), cwd, global,
                        new PrintStream(protocolOut, true, StandardCharsets.UTF_8), System.err));
                return;
            }
            options = CliOptions.parse(args);
        } catch (CliOptions.UsageException e) {
            System.err.println("agentd: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help() || options.version()) {
            // Not a protocol session: the conventional place for these is stdout.
            PrintStream out = new PrintStream(protocolOut, true, StandardCharsets.UTF_8);
            out.print(options.help() ? CliOptions.USAGE : "agentd " + Version.current() + "\n");
            out.flush();
            System.exit(0);
            return;
        }
        StartupPrelude.start(); // before the first logger: slf4j is the main thread's first long step
        int code;
        try {
            code = Daemon.start(options, System.in, protocolOut).serve();
        } catch (CliOptions.UsageException e) {
            System.err.println("agentd: " + e.getMessage());
            code = 2;
        } catch (Exception e) {
            System.err.println("agentd: startup failed: " + e.getMessage());
            code = 1;
        }
        System.exit(code);
    }
}
