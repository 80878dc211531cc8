package dev.agentd.server.export;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;

/**
 * Renders a session as one HTML page that needs nothing else: inline CSS, images as data URLs, no
 * scripts and no external references, so it opens offline and cannot run code from the session.
 * Every piece of session text is escaped.
 */
public final class HtmlExport {
    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;background:#fafafa;color:#222}
            h1{font-size:1.3rem}.meta{color:#666;font-size:.85rem}
            .msg{border-radius:6px;padding:.6rem .9rem;margin:.8rem 0;background:#fff;border:1px solid #ddd}
            .user{border-left:4px solid #3b82f6}.assistant{border-left:4px solid #10b981}
            .toolResult{border-left:4px solid #f59e0b}.error{border-left:4px solid #ef4444}
            .role{font-weight:600;font-size:.8rem;text-transform:uppercase;color:#555}
            pre{white-space:pre-wrap;word-wrap:break-word;margin:.3rem 0;font-family:ui-monospace,monospace;font-size:.85rem}
            .thinking{color:#777;font-style:italic}img{max-width:100%}
            """;

    private HtmlExport() {}

    public static String render(String title, List<AgentMessage> messages) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(escape(title)).append("</title><style>").append(STYLE)
                .append("</style></head><body>\n<h1>").append(escape(title)).append("</h1>\n<p class=\"meta\">")
                .append(messages.size()).append(" messages</p>\n");
        for (AgentMessage message : messages) {
            message(html, message);
        }
        return html.append("</body></html>\n").toString();
    }

    private static void message(StringBuilder html, AgentMessage message) {
        String css = message.role();
        if (message instanceof AgentMessage.Assistant reply && reply.stopReason().failed()
                || message instanceof AgentMessage.ToolResult result && result.isError()) {
            css += " error";
        }
        html.append("<section class=\"msg ").append(escape(css)).append("\"><div class=\"role\">")
                .append(escape(label(message))).append("</div>");
        if (message instanceof AgentMessage.User user) {
            blocks(html, user.content());
        } else if (message instanceof AgentMessage.Assistant reply) {
            blocks(html, reply.content());
            if (reply.errorMessage() != null) {
                pre(html, reply.errorMessage());
            }
        } else if (message instanceof AgentMessage.ToolResult result) {
            blocks(html, result.content());
        } else if (message instanceof AgentMessage.BashExecution bash) {
            pre(html, "$ " + bash.command() + "\n" + bash.output());
        } else if (message instanceof AgentMessage.CompactionSummary summary) {
            pre(html, summary.summary());
        } else if (message instanceof AgentMessage.BranchSummary summary) {
            pre(html, summary.summary());
        } else if (!(message instanceof AgentMessage.Custom || message instanceof AgentMessage.Unknown)) {
            // Custom and unknown messages show their role only.
            throw new IllegalStateException("unhandled message in an export: " + message);
        }
        html.append("</section>\n");
    }

    private static String label(AgentMessage message) {
        if (message instanceof AgentMessage.ToolResult result) {
            return "tool result: " + result.toolName();
        }
        if (message instanceof AgentMessage.Assistant reply) {
            return "assistant (" + reply.provider() + "/" + reply.model() + ")";
        }
        return message.role();
    }

    private static void blocks(StringBuilder html, List<ContentBlock> blocks) {
        for (ContentBlock block : blocks) {
            if (block instanceof ContentBlock.Text text) {
                pre(html, text.text());
            } else if (block instanceof ContentBlock.Thinking thinking) {
                html.append("<pre class=\"thinking\">").append(escape(thinking.thinking())).append("</pre>");
            } else if (block instanceof ContentBlock.ToolCall call) {
                pre(html, "→ " + call.name() + " " + Json.mapper().valueToTree(call.arguments()).toString());
            } else if (block instanceof ContentBlock.Image image) {
                if (safeMime(image.mimeType())) { // only the image types safeMime allows are embedded
                    html.append("<img alt=\"image\" src=\"data:").append(image.mimeType()).append(";base64,")
                            .append(escape(image.data())).append("\">");
                }
            } else if (!(block instanceof ContentBlock.Unknown)) { // an unknown block is left out
                throw new IllegalStateException("unhandled block in an export: " + block);
            }
        }
    }

    private static boolean safeMime(String mime) {
        return mime != null && List.of("image/png", "image/jpeg", "image/gif", "image/webp").contains(mime);
    }

    private static void pre(StringBuilder html, String text) {
        html.append("<pre>").append(escape(text)).append("</pre>");
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
