/**
 * The entry point and the impure wiring: command line, agent directories, building the object
 * graph from files and the environment, serving, orderly shutdown on EOF or SIGTERM.
 * The only package that reads the environment or touches the process's stdout.
 */
package dev.agentd.server.cli;
