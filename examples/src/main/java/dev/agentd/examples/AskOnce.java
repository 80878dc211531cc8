package dev.agentd.examples;

import dev.agentd.client.PromptResult;
import dev.agentd.client.RpcClient;
import dev.agentd.client.RpcException;
import dev.agentd.protocol.event.AgentEvent;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Sends one prompt to a freshly spawned agentd, streams the answer to stdout and exits.
 *
 * <pre>
 *   java -Dagentd.jar=rpc-server/target/agentd.jar -cp … dev.agentd.examples.AskOnce \
 *        What is 2+2? --faux-script x.json
 * </pre>
 *
 * Words up to the first {@code --option} form the prompt (default "Hello!"); the rest go to the
 * daemon. The jar comes from {@code -Dagentd.jar}, else {@code $AGENTD_JAR}, else
 * {@code rpc-server/target/agentd.jar}.
 */
public final class AskOnce {
    private AskOnce() {}

    public static void main(String[] args) {
        int split = firstOption(args);
        String prompt = split == 0 ? "Hello!" : String.join(" ", Arrays.copyOfRange(args, 0, split));
        String[] daemonArgs = Arrays.copyOfRange(args, split, args.length);

        try (RpcClient client = RpcClient.builder().jar(DaemonJar.locate()).args(daemonArgs).start()) {
            client.addListener(AskOnce::show);
            // Returns after the final run: intermediate failures that are retried do not end it.
            PromptResult result = client.promptAndWait(prompt, Duration.ofMinutes(10));
            System.out.println();
            if (!result.succeeded()) {
                System.err.println("error: " + result.error().orElse("unknown"));
                System.exit(1);
            }
        } catch (RpcException e) {
            System.out.println();
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Streams text deltas to stdout and retry notices to stderr. */
    private static void show(AgentEvent event) {
        if (event instanceof AgentEvent.MessageUpdate update
                && "text_delta".equals(update.assistantMessageEvent().type())) {
            System.out.print(update.assistantMessageEvent().delta());
            System.out.flush();
        } else if (event instanceof AgentEvent.AutoRetryStart retry) {
            System.err.printf("[retrying %d/%d in %ss: %s]%n", retry.attempt(), retry.maxAttempts(),
                    seconds(retry.delayMs()), retry.errorMessage());
        }
    }

    private static int firstOption(String[] args) {
        List<String> list = Arrays.asList(args);
        int index = 0;
        while (index < list.size() && !list.get(index).startsWith("--")) {
            index++;
        }
        return index;
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : String.format("%.1f", millis / 1000.0);
    }
}
