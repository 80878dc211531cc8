package dev.agentd.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.server.testing.SealedCases;
import dev.agentd.server.wire.JsonRpcEnvelope;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exhaustive dispatch (issue 23): the sealed results the dialects branch on have exactly the cases
 * their branches handle; any other case is thrown as unhandled. A new case fails here first, naming
 * the dispatch that needs a branch for it.
 */
class DispatchCasesTest {

    @Test
    void aDecodedCommandIsDecodedOrRejected() {
        assertEquals(Set.of("Decoded", "Rejected"), SealedCases.names(CommandCodec.Result.class),
                "RpcMode.handle and JsonRpcDispatcher's invoker handle these");
    }

    @Test
    void aCheckedEnvelopeIsACallOrRejected() {
        assertEquals(Set.of("Call", "Rejected"), SealedCases.names(JsonRpcEnvelope.Result.class),
                "JsonRpcMode.handle handles these");
    }
}
