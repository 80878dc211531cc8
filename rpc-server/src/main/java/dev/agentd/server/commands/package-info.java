/**
 * Prompt templates and skills (pi 0.73's slash commands): found in the agent and project
 * directories, listed by {@code get_commands}, expanded when a prompt starts with {@code /name}.
 * {@link SlashCommands} reads the files; {@link TemplateArgs} is the pure argument substitution.
 * May import {@code protocol}.
 */
package dev.agentd.server.commands;
