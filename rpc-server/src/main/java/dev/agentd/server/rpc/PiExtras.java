package dev.agentd.server.rpc;

import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.export.HtmlExport;
import dev.agentd.server.session.AgentSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What pi 0.73's extra commands need beyond the session: the prompt templates and skills
 * ({@code get_commands}, {@code /name} expansion) and the directory {@code export_html} writes to
 * when no {@code outputPath} is given.
 */
public record PiExtras(SlashCommands commands, Path cwd) {

    /** Writes the session page; returns the path as given, or the default file name in the cwd. */
    String export(AgentSession session, String outputPath) {
        String name = outputPath != null && !outputPath.isBlank() ? outputPath
                : "agentd-session-" + session.sessionId() + ".html";
        Path target = cwd.resolve(name);
        String title = session.state().sessionName() != null ? session.state().sessionName()
                : "agentd session " + session.sessionId();
        try {
            Path parent = target.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(target, HtmlExport.render(title, session.messages()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + name + ": " + e.getMessage(), e);
        }
        return name;
    }
}
