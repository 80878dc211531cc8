package dev.agentd.server.testing;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import java.util.List;

/**
 * One way for tests to build an {@link AgentMessage.Assistant} (12 positional components): name
 * only what the test is about. Defaults: no content, from faux/faux/faux-1, {@link Usage#ZERO},
 * {@link StopReason#STOP}, timestamp 0, no error fields.
 */
public final class Replies {
    private Replies() {}

    /** A builder with the defaults. */
    public static Builder reply() {
        return new Builder();
    }

    /** A finished reply holding one text block. */
    public static AgentMessage.Assistant text(String text) {
        return reply().text(text).build();
    }

    public static final class Builder {
        private List<ContentBlock> content = List.of();
        private String api = "faux";
        private String provider = "faux";
        private String model = "faux-1";
        private Usage usage = Usage.ZERO;
        private StopReason stopReason = StopReason.STOP;
        private String errorMessage;
        private long timestamp;
        private Integer errorStatus;
        private String errorType;
        private Long retryAfterMs;
        private Boolean shouldRetry;

        private Builder() {}

        public Builder content(List<ContentBlock> blocks) {
            this.content = blocks;
            return this;
        }

        public Builder content(ContentBlock... blocks) {
            return content(List.of(blocks));
        }

        public Builder text(String text) {
            return content(new ContentBlock.Text(text));
        }

        /** Which api, provider and model answered. */
        public Builder from(String api, String provider, String model) {
            this.api = api;
            this.provider = provider;
            this.model = model;
            return this;
        }

        public Builder from(Model model) {
            return from(model.api(), model.provider(), model.id());
        }

        public Builder usage(Usage usage) {
            this.usage = usage;
            return this;
        }

        public Builder stop(StopReason reason) {
            this.stopReason = reason;
            return this;
        }

        /** Ends with {@code reason} and {@code message} (an error or an abort). */
        public Builder failed(StopReason reason, String message) {
            this.stopReason = reason;
            this.errorMessage = message;
            return this;
        }

        /** Ends with {@link StopReason#ERROR} and {@code message}. */
        public Builder error(String message) {
            return failed(StopReason.ERROR, message);
        }

        public Builder at(long timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        /** The structured error fields a provider error carries (any may be null). */
        public Builder errorFields(Integer status, String type, Long retryAfterMs, Boolean shouldRetry) {
            this.errorStatus = status;
            this.errorType = type;
            this.retryAfterMs = retryAfterMs;
            this.shouldRetry = shouldRetry;
            return this;
        }

        public AgentMessage.Assistant build() {
            return new AgentMessage.Assistant(content, api, provider, model, usage, stopReason, errorMessage,
                    timestamp, errorStatus, errorType, retryAfterMs, shouldRetry);
        }
    }
}
