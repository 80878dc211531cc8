package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.sessionfile.SessionEntry;
import dev.agentd.server.sessionfile.SessionFile;
import java.util.Optional;

/**
 * A resume at reset as the session file keeps it (FALLBACK §11): a pi {@code custom} entry, so pi
 * and older agentd keep it verbatim and leave it out of the context. It is written before
 * {@code retry_resume_scheduled} is sent; a cancelled wait is followed by a {@link #CANCELLED}
 * entry. A file whose active path ends in a scheduled resume has a wait to re-arm after a restart.
 *
 * @param attempt the retry attempt the resume is
 * @param maxAttempts the chain's {@code maxRetries} when it was scheduled
 */
record ResumeEntry(String selector, long resumeAt, long waitMs, String reason, int attempt, int maxAttempts,
        String errorMessage) {
    static final String SCHEDULED = "agentd.retryResume";
    static final String CANCELLED = "agentd.retryResumeCancelled";
    /** A hostile or corrupt file's text is clipped: the error message is shown in an event. */
    private static final int MAX_TEXT_CHARS = 2000;

    ObjectNode data() {
        ObjectNode data = Json.mapper().createObjectNode();
        data.put("selector", selector).put("resumeAt", resumeAt).put("waitMs", waitMs).put("reason", reason)
                .put("attempt", attempt).put("maxAttempts", maxAttempts).put("errorMessage", errorMessage);
        return data;
    }

    void appendTo(SessionFile file) {
        file.appendCustom(SCHEDULED, data());
    }

    static void appendCancelled(SessionFile file) {
        file.appendCustom(CANCELLED, Json.mapper().createObjectNode());
    }

    /** The resume the file's active path ends in, if any; a malformed entry is none. */
    static Optional<ResumeEntry> pending(SessionFile file) {
        return file.leaf().flatMap(ResumeEntry::of);
    }

    static Optional<ResumeEntry> of(SessionEntry entry) {
        if (!(entry instanceof SessionEntry.Unknown custom) || !SessionFile.CUSTOM.equals(custom.type())
                || !SCHEDULED.equals(custom.json().path("customType").asText(null))) {
            return Optional.empty();
        }
        JsonNode data = custom.json().path("data");
        if (!data.path("selector").isTextual() || !data.path("resumeAt").canConvertToLong()
                || !data.path("waitMs").canConvertToLong() || !data.path("attempt").canConvertToInt()) {
            return Optional.empty();
        }
        return Optional.of(new ResumeEntry(clip(data.path("selector").asText()), data.path("resumeAt").asLong(),
                Math.max(0, data.path("waitMs").asLong()), clip(data.path("reason").asText("usage_limit")),
                Math.max(1, data.path("attempt").asInt()), Math.max(0, data.path("maxAttempts").asInt(0)),
                clip(data.path("errorMessage").asText(""))));
    }

    private static String clip(String text) {
        return text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS);
    }
}
