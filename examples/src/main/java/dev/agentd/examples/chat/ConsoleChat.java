package dev.agentd.examples.chat;

import dev.agentd.client.RpcClient;
import dev.agentd.client.RpcException;
import dev.agentd.examples.DaemonJar;
import dev.agentd.protocol.model.UpdateMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * An interactive chat with a freshly spawned agentd:
 *
 * <pre>
 *   java -cp examples/target/agentd-examples.jar dev.agentd.examples.chat.ConsoleChat \
 *        --no-session --faux-script examples/faux/retry-then-answer.json
 * </pre>
 *
 * Every argument goes to the daemon; the jar is found as {@link DaemonJar} says. Type a line and
 * press Enter to send it (a follow-up while a run is active); Esc aborts the run, or cancels the
 * retry while one waits; Ctrl-D quits. With stdin not a terminal the lines are read as they come,
 * and at end of input the chat waits for the agent to finish before it exits.
 */
public final class ConsoleChat {
    private static final Duration DRAIN_TIMEOUT = Duration.ofHours(1);

    private ConsoleChat() {}

    public static void main(String[] args) {
        int status = run(args, System.in, System.out, System.console() != null);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The whole program minus the exit: 0 when the input ended normally, 1 when the daemon failed. */
    static int run(String[] daemonArgs, InputStream in, PrintStream stdout, boolean tty) {
        Optional<TtyMode> raw = tty ? TtyMode.enterRaw() : Optional.empty();
        PrintStream out = new PrintStream(stdout, true, StandardCharsets.UTF_8); // "…" whatever the default charset
        ConsoleTerminal terminal = new ConsoleTerminal(out, raw.isPresent());
        try (SystemScheduler scheduler = new SystemScheduler();
                RpcClient client = RpcClient.builder().jar(DaemonJar.locate()).args(daemonArgs).start()) {
            client.setEventOptions(UpdateMode.DELTA); // text deltas only: no partial message per update
            ChatController controller = new ChatController(terminal, new RpcChatAgent(client), scheduler);
            controller.start();
            RpcChatAgent.connect(client, controller);
            ConsoleInput input = new ConsoleInput(terminal, controller::submit);
            if (raw.isPresent()) {
                terminal.println("agentd chat: Enter sends, Esc aborts (or cancels a retry), Ctrl-D quits.");
                input.readKeys(in);
            } else {
                input.readLines(in);
                client.waitForIdle(DRAIN_TIMEOUT); // piped input: let the last answer finish
            }
            controller.close();
            terminal.endLine();
            return 0;
        } catch (RpcException | IOException e) {
            terminal.endLine();
            System.err.println("error: " + e.getMessage());
            return 1;
        } finally {
            raw.ifPresent(TtyMode::close);
        }
    }
}
