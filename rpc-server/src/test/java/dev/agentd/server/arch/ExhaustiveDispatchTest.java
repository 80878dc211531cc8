package dev.agentd.server.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.fallback.ProbePlan;
import dev.agentd.server.fallback.RevertRule;
import dev.agentd.server.recovery.RecoveryAction;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every sealed hierarchy the code carries out is dispatched through a handler with one method per
 * case (issue 23, W8): a new case then cannot be dropped silently, because it must implement
 * {@code accept} and the handler must gain its method. This checks the pairing for each such
 * hierarchy: one abstract handler method per permitted case, taking exactly that case, and each
 * case overriding {@code accept}.
 */
class ExhaustiveDispatchTest {
    private record Dispatch(Class<?> sealed, Class<?> handler) {}

    private static final List<Dispatch> DISPATCHES = List.of(
            new Dispatch(RecoveryAction.class, RecoveryAction.Handler.class),
            new Dispatch(RevertRule.Decision.class, RevertRule.Handler.class),
            new Dispatch(ProbePlan.Effect.class, ProbePlan.Effect.Handler.class));

    @TestFactory
    Stream<DynamicTest> everyCaseHasItsOwnHandlerMethod() {
        return DISPATCHES.stream().map(d -> DynamicTest.dynamicTest(d.sealed().getSimpleName(), () -> check(d)));
    }

    private static void check(Dispatch dispatch) throws NoSuchMethodException {
        assertTrue(dispatch.sealed().isSealed(), dispatch.sealed() + " is sealed");
        Set<Class<?>> cases = Set.of(dispatch.sealed().getPermittedSubclasses());
        List<Method> methods = Arrays.stream(dispatch.handler().getDeclaredMethods())
                .filter(method -> Modifier.isAbstract(method.getModifiers())).toList();
        assertEquals(cases.size(), methods.size(), dispatch.handler() + ": one method per case of " + cases);
        Set<Class<?>> handled = methods.stream().filter(method -> method.getParameterCount() == 1)
                .map(method -> method.getParameterTypes()[0]).collect(Collectors.toSet());
        assertEquals(cases, handled, dispatch.handler() + " handles exactly the permitted cases");
        for (Class<?> each : cases) {
            Method accept = each.getMethod("accept", dispatch.handler());
            assertEquals(each, accept.getDeclaringClass(), each + " carries itself to its own handler method");
        }
    }
}
