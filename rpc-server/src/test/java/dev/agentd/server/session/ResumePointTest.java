package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.sessionfile.SessionEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FALLBACK §5.6: which model and level a resumed branch continues with. */
class ResumePointTest {
    private final List<SessionEntry> branch = new ArrayList<>();

    private ResumePointTest model(String modelId, String reason, String originalModelId) {
        branch.add(new SessionEntry.ModelChange(id(), null, "t", "p", modelId, reason,
                originalModelId == null ? null : "p", originalModelId));
        return this;
    }

    private ResumePointTest user(String modelId) {
        return model(modelId, null, null);
    }

    private ResumePointTest thinking(String level) {
        branch.add(new SessionEntry.ThinkingLevelChange(id(), null, "t", level));
        return this;
    }

    private String id() {
        return String.format("%08x", branch.size());
    }

    private void resumes(String modelId, ThinkingLevel level) {
        ResumePoint point = ResumePoint.of(branch);
        assertEquals(modelId, point.modelId(), "model of " + point);
        assertEquals(level, point.thinkingLevel(), "level of " + point);
        if (modelId != null) {
            assertEquals("p", point.provider());
        }
    }

    @Test
    void plainChangesResumeTheLastOne() {
        resumes(null, null);
        user("a").thinking("high").user("b");
        resumes("b", ThinkingLevel.HIGH);
    }

    @Test
    void aWindowOpenAtTheEndResumesTheOriginalAtTheLevelBeforeIt() {
        user("a").thinking("high").model("b", "fallback", "a").thinking("low").model("c", "fallback", "b");
        resumes("a", ThinkingLevel.HIGH);
    }

    @Test
    void aRevertClosesTheWindowAndRestoresTheLevelBeforeIt() {
        user("a").thinking("high").model("b", "fallback", "a").thinking("low").model("a", "fallback-revert", "a");
        resumes("a", ThinkingLevel.HIGH);
    }

    @Test
    void aUserChangeClosesTheWindowAndKeepsTheLevelSetInIt() {
        user("a").thinking("high").model("b", "fallback", "a").thinking("low").user("c");
        resumes("c", ThinkingLevel.LOW);
        model("d", "fallback", "c");
        resumes("c", ThinkingLevel.LOW);
    }

    @Test
    void oddEntriesAreTolerated() {
        user("a").model("b", "fallback-revert", "x");
        resumes("a", null);
        model("c", "fallback", null);
        resumes("a", null);
        model("d", "something-new", null);
        resumes("d", null);
        thinking("not-a-level");
        resumes("d", null);
    }
}
