package dev.agentd.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.CommandCodec;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The JSON-RPC method list jsonrpc4j dispatches to is exactly the command list. */
class CommandMethodsTest {

    @Test
    void oneMethodPerCommandNameAndNoOther() {
        Set<String> methods = new TreeSet<>();
        for (Method method : CommandMethods.class.getDeclaredMethods()) {
            methods.add(method.getName());
        }
        assertEquals(new TreeSet<>(CommandCodec.commandNames()), methods);
    }

    @Test
    void everyMethodTakesTheParamsObjectAndReturnsNothing() {
        for (Method method : CommandMethods.class.getDeclaredMethods()) {
            assertEquals(List.of(ObjectNode.class), Arrays.asList(method.getParameterTypes()), method.getName());
            assertEquals(void.class, method.getReturnType(), method.getName());
        }
    }
}
