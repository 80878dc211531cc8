package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;

/**
 * The most a streamed reply may hold (issue 22, N2): UTF-8 bytes of text, thinking (with
 * signatures) and tool-call arguments together. A provider that streams past it is cut off and the
 * reply ends as an error naming the bound, instead of growing until the heap, stdout's writer or the
 * session file's load limit gives out. Two limits, the lower wins:
 * <ul>
 *   <li>the model's {@code maxTokens}, generously: {@value #BYTES_PER_TOKEN} bytes a token (a token
 *       is about 4 characters; a CJK character is 3 bytes) plus {@value #SLACK_BYTES} bytes, so a
 *       reply the model may legitimately produce is never cut;</li>
 *   <li>an absolute cap, the {@code retry.provider.maxReplyBytes} setting (default
 *       {@value #DEFAULT_MAX_REPLY_BYTES}, far under the 512 MB a session file may hold to load).</li>
 * </ul>
 *
 * @param maxBytes the limit; {@link Long#MAX_VALUE} is none
 * @param cause what the error message names: {@code 32 MiB (retry.provider.maxReplyBytes)}
 */
public record ReplyBound(long maxBytes, String cause) {
    public static final long BYTES_PER_TOKEN = 16;
    public static final long SLACK_BYTES = 256 * 1024;
    public static final long DEFAULT_MAX_REPLY_BYTES = 32L * 1024 * 1024;
    public static final String SETTING = "retry.provider.maxReplyBytes";
    /** No bound (the faux provider, which replays what the client scripted). */
    public static final ReplyBound NONE = new ReplyBound(Long.MAX_VALUE, "no bound");

    /** The bound for a reply of {@code model} under the cap {@code maxReplyBytes}. */
    public static ReplyBound of(Model model, long maxReplyBytes) {
        ReplyBound cap = new ReplyBound(maxReplyBytes, size(maxReplyBytes) + " (" + SETTING + ")");
        long maxTokens = model == null ? 0 : model.maxTokens();
        if (maxTokens <= 0 || maxTokens > (cap.maxBytes - SLACK_BYTES) / BYTES_PER_TOKEN) {
            return cap;
        }
        long bytes = maxTokens * BYTES_PER_TOKEN + SLACK_BYTES;
        return new ReplyBound(bytes, size(bytes) + " (" + BYTES_PER_TOKEN + " bytes per token of the model's maxTokens "
                + maxTokens + ")");
    }

    /** The errorMessage of a reply cut at this bound. */
    public String errorMessage() {
        return "reply too large: over " + cause;
    }

    /** The UTF-8 length of {@code text}, without encoding it. */
    public static long utf8Bytes(CharSequence text) {
        long bytes = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3; // a pair: 2 + 2 = 4
        }
        return bytes;
    }

    private static String size(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
    }
}
