package dev.agentd.server.cli;

import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.server.sessionfile.SessionEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.slf4j.LoggerFactory;

/**
 * The second core's share of start-up (issue 18): one-time JDK and codec work that the main
 * thread meets on its way to {@code ready} and the reader thread on the first command line,
 * done beforehand on a thread of its own — the first annotation reads (the wire-name tables, for
 * which the JDK generates proxy classes), the first {@code java.time} formatting (session
 * headers), the version resource, and jackson-core's parser and generator. Whichever thread comes
 * first does each piece; the other finds it done. No {@code ObjectMapper} here: building one is
 * the larger cost, left to {@link CodecWarmup} after {@code ready}.
 */
final class StartupPrelude {
    private StartupPrelude() {}

    /** Starts the prelude on a daemon thread of its own and returns at once. */
    static void start() {
        Thread prelude = new Thread(StartupPrelude::run, "agentd-prelude");
        prelude.setDaemon(true);
        prelude.start();
    }

    static void run() {
        try {
            WireTypes.registry(SessionEntry.class);
            WireTypes.nameOf(AgentEvent.Ready.class);
            Instant.ofEpochMilli(0).toString();
            Version.current();
            CommandCodec.decode(JsonTrees.read("{\"type\":\"get_state\",\"id\":\"prelude\"}"
                    .getBytes(StandardCharsets.UTF_8)));
            JsonTrees.write(new ByteArrayOutputStream(), JsonTrees.read("{\"a\":[1,2.5,true,null]}"
                    .getBytes(StandardCharsets.UTF_8)));
            WireTypes.registry(Command.class);
        } catch (Exception | LinkageError e) {
            LoggerFactory.getLogger(StartupPrelude.class).debug("start-up prelude failed: {}", e.toString());
        }
    }
}
