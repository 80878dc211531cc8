package dev.agentd.server.ai.faux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.http.RecordingListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A faux script's error text is client input: it is cut like a provider's before it is classified. */
class FauxErrorBoundsTest {

    @Test
    void hugeScriptedErrorsAreCut() {
        FauxScript script = new FauxScript();
        String message = "usage limit " + "a".repeat(60_000) + "spend_limit_exceeded";
        script.enqueue("faux-1", List.of(new FauxStep(null, null, null, null, null, message, 429,
                "t".repeat(60_000), null, null, null, null, null)));
        FauxProvider faux = new FauxProvider(script, new FakeScheduler(), 0);
        AgentMessage.Assistant reply = faux.stream(new StreamRequest(FauxModels.FAUX_1, "", List.of(
                new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), List.of(), null, null, Map.of(), "s"),
                new RecordingListener(), CancellationToken.none());
        assertEquals(TextBounds.MAX_ERROR_MESSAGE_CHARS, reply.errorMessage().length());
        assertEquals(TextBounds.MAX_TYPE_CHARS, reply.errorType().length());
        assertEquals(ErrorClass.USAGE_LIMIT, assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> ErrorClassifier.classify(reply, 0)).errorClass(), "the spend limit was past the cut");
    }
}
