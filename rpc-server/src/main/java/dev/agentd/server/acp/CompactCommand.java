package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.CompactionResult;

/**
 * {@code /compact [instructions]} in an ACP prompt: pi's built-in command, offered to the editor
 * with the prompt templates and skills, so manual compaction is reachable from an editor too. Pure.
 */
final class CompactCommand {
    static final String NAME = "compact";

    private CompactCommand() {}

    /** The prompt is the command, with or without instructions. */
    static boolean matches(String text) {
        String command = text.strip();
        return command.equals("/" + NAME) || command.startsWith("/" + NAME) && command.length() > NAME.length() + 1
                && Character.isWhitespace(command.charAt(NAME.length() + 1));
    }

    /** The instructions for the summary, or null. */
    static String instructions(String text) {
        String rest = text.strip().substring(NAME.length() + 1).strip();
        return rest.isEmpty() ? null : rest;
    }

    /** Its entry in {@code available_commands_update}. */
    static ObjectNode advertised() {
        ObjectNode entry = AcpJson.object().put("name", NAME)
                .put("description", "Summarize the conversation so far to free context");
        entry.putObject("input").put("hint", "optional instructions for the summary");
        return entry;
    }

    /** The reply's line for a client that shows no compaction updates. */
    static String done(CompactionResult result) {
        return result == null ? "Nothing to compact." : "Compacted the conversation: about " + result.tokensBefore()
                + " tokens summarized.";
    }
}
