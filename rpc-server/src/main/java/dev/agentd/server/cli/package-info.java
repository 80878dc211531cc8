/**
 * The entry point and the impure wiring: command line, agent directories, building the object
 * graph from files and the environment, serving, orderly shutdown on EOF, SIGTERM or SIGHUP
 * ({@code ShutdownSignals}). The only package that reads configuration from the environment;
 * only {@code Main} touches the process's stdout and stderr. May import every package.
 */
package dev.agentd.server.cli;
