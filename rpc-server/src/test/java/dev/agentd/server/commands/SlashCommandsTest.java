package dev.agentd.server.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.response.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlashCommandsTest {
    @TempDir
    Path dir;

    @Test
    void argumentsSubstituteLikePi() {
        List<String> args = TemplateArgs.split("Bob \"the builder\" 'x y' z");
        assertEquals(List.of("Bob", "the builder", "x y", "z"), args);
        assertEquals("Hi Bob, the builder; all: Bob the builder x y z; from 3: x y z; none: .; $x $",
                TemplateArgs.substitute("Hi $1, $2; all: $@; from 3: ${@:3}; none: $9.; $x $", args));
        assertEquals("Bob the builder x y z", TemplateArgs.substitute("$ARGUMENTS", args));
    }

    @Test
    void templatesAndSkillsFromBothDirectoriesAreListedAndExpanded() throws IOException {
        Path agent = dir.resolve("agent");
        Path project = dir.resolve("project");
        Files.createDirectories(agent.resolve("prompts"));
        Files.createDirectories(project.resolve("skills/tidy"));
        Files.writeString(agent.resolve("prompts/greet.md"), "---\ndescription: Greet someone\n---\nSay hello to $1 politely.\n");
        Files.writeString(agent.resolve("prompts/plain.md"), "\nReview the diff carefully\n");
        Files.writeString(project.resolve("skills/tidy/SKILL.md"), "---\nname: tidy\ndescription: Tidy up\n---\nRemove dead code.\n");
        SlashCommands commands = new SlashCommands(agent, project);

        List<Results.SlashCommand> listed = commands.list();
        assertEquals(List.of("greet", "plain", "skill:tidy"), listed.stream().map(Results.SlashCommand::name).toList());
        assertEquals("Greet someone", listed.get(0).description());
        assertEquals("Review the diff carefully", listed.get(1).description());
        assertEquals(List.of("prompt", "prompt", "skill"), listed.stream().map(Results.SlashCommand::source).toList());
        assertEquals("project", listed.get(2).sourceInfo().scope());
        assertEquals("user", listed.get(0).sourceInfo().scope());

        assertEquals("Say hello to Bob politely.\n", commands.expand("/greet Bob"));
        String skill = commands.expand("/skill:tidy now please");
        assertTrue(skill.startsWith("<skill name=\"tidy\""), skill);
        assertTrue(skill.contains("Remove dead code.") && skill.endsWith("</skill>\n\nnow please"), skill);
        assertEquals("/unknown x", commands.expand("/unknown x"));
        assertEquals("no slash", commands.expand("no slash"));
        assertEquals(List.of(), SlashCommands.none().list());
    }
}
