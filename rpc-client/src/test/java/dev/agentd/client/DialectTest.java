package dev.agentd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A spawned daemon is started in the client's dialect. */
class DialectTest {

    private static List<String> commandLine(Dialect dialect, String... args) {
        ClientOptions.Draft draft = new ClientOptions.Draft();
        draft.command = List.of("agentd");
        draft.args.addAll(List.of(args));
        draft.dialect = dialect;
        return draft.freeze().command();
    }

    @Test
    void jsonRpcAddsItsModeUnlessOneIsGiven() {
        assertEquals(List.of("agentd", "--no-session", "--mode", "jsonrpc"),
                commandLine(Dialect.JSONRPC, "--no-session"));
        assertEquals(List.of("agentd", "--mode", "jsonrpc"), commandLine(Dialect.JSONRPC, "--mode", "jsonrpc"));
        assertEquals(List.of("agentd", "--mode=jsonrpc"), commandLine(Dialect.JSONRPC, "--mode=jsonrpc"));
    }

    @Test
    void rpcIsTheDaemonsDefaultAndAddsNothing() {
        assertEquals(List.of("agentd", "--no-session"), commandLine(Dialect.RPC, "--no-session"));
    }

    @Test
    void modesAreTheDaemonsNames() {
        assertEquals("rpc", Dialect.RPC.mode());
        assertEquals("jsonrpc", Dialect.JSONRPC.mode());
    }
}
