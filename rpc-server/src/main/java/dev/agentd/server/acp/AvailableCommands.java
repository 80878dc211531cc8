package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.response.Results;
import java.util.List;

/**
 * The slash commands an editor offers: agentd's own {@code /compact}, then the prompt templates
 * and skills. Pure; {@code AcpSession} sends the list again whenever it differs from the one the
 * client was last sent (templates are files, read on each use, so they change under a session).
 */
final class AvailableCommands {
    private AvailableCommands() {}

    static ArrayNode of(List<Results.SlashCommand> commands) {
        ArrayNode list = AcpJson.array();
        list.add(CompactCommand.advertised()); // agentd's own, like pi's: a template cannot take its name
        for (var command : commands) {
            if (CompactCommand.NAME.equals(command.name())) {
                continue;
            }
            ObjectNode entry = list.addObject().put("name", command.name());
            entry.put("description", command.description() == null ? "" : command.description());
            entry.putObject("input").put("hint", "arguments");
        }
        return list;
    }

    static ObjectNode update(ArrayNode commands) {
        ObjectNode update = AcpJson.update("available_commands_update");
        update.set("availableCommands", commands);
        return update;
    }
}
