package dev.agentd.server.cli;

import dev.agentd.protocol.model.UpdateMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The command line of SPEC §2, parsed. Bad arguments raise {@link UsageException} (exit code 2).
 * {@code toString} never shows the API key.
 */
public record CliOptions(
        String mode,
        String provider,
        String model,
        String thinking,
        boolean noSession,
        Path sessionDir,
        Path sessionFile,
        boolean continueSession,
        String apiKey,
        List<String> tools,
        boolean noModelFallback,
        Path fauxScript,
        UpdateMode updates,
        boolean verbose,
        boolean version,
        boolean help) {

    public static final String USAGE = """
            Usage: agentd [options]
                   agentd trust [DIR]

            Runs one AI coding-agent session, driven by line-delimited JSON on stdin/stdout.

              --mode rpc|jsonrpc|acp wire protocol (default rpc: pi-compatible JSONL; acp: editors)
              --provider P           provider of the model to use
              --model M              model: id, provider/id or provider/id:thinking
              --thinking LEVEL       off|minimal|low|medium|high|xhigh|max
              --no-session           keep the session in memory only
              --session-dir DIR      where session files go
              --session FILE         open this session file
              --continue             continue the latest session of this directory
              --api-key KEY          credential for the chosen model's provider
              --tools a,b,...        enabled tools (default read,write,edit,bash)
              --no-model-fallback    disable model fallback chains for this run
              --faux-script FILE     scripted replies for the embedded faux model
              --updates delta|full   message_update form: delta (default, as pi 1.x) or full (pi 0.73)
              --verbose              log each provider request and each retry, compaction and
                                     fallback decision on stderr (same as AGENTD_LOG=debug)
              --version              print the version and exit
              --help                 print this help and exit

            agentd trust [DIR] records DIR (default: the current directory) as a trusted project in
            the global settings.json: only then may its .agentd/settings.json set acp.permissions.

            Files: AGENTD_DIR (default ~/.agentd) holds settings.json, auth.json, models.json
            and sessions/; <cwd>/.agentd/settings.json overrides settings per project.
            Keys: --api-key, auth.json, ANTHROPIC_API_KEY / OPENAI_API_KEY / ..., or models.json
            "apiKey". A models.json provider with a baseUrl and models but no "apiKey" (Ollama,
            vLLM, llama.cpp) needs none. With no credential the embedded faux model answers.
            Logging (stderr only): AGENTD_LOG=debug|info|warn (default info).
            Exit codes: 0 orderly shutdown, 1 startup failure, 2 bad arguments.
            Try: {"type":"get_state","id":"1"}   then   {"type":"prompt","id":"2","message":"Hello!"}
            """;

    /** Raised for bad arguments; the message is printed on stderr and the exit code is 2. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    public static CliOptions parse(String... args) throws UsageException {
        Parser parser = new Parser(args);
        String mode = "rpc";
        String provider = null;
        String model = null;
        String thinking = null;
        boolean noSession = false;
        Path sessionDir = null;
        Path sessionFile = null;
        boolean continueSession = false;
        String apiKey = null;
        List<String> tools = null;
        boolean noFallback = false;
        Path fauxScript = null;
        UpdateMode updates = UpdateMode.DELTA;
        boolean verbose = false;
        boolean version = false;
        boolean help = false;
        while (parser.hasNext()) {
            String arg = parser.next();
            switch (arg) {
                case "--mode" -> {
                    mode = parser.value(arg);
                    if (!mode.equals("rpc") && !mode.equals("jsonrpc") && !mode.equals("acp")) {
                        throw new UsageException("--mode must be rpc, jsonrpc or acp, got '" + mode + "'");
                    }
                }
                case "--provider" -> provider = parser.value(arg);
                case "--model" -> model = parser.value(arg);
                case "--thinking" -> thinking = parser.value(arg);
                case "--no-session" -> noSession = true;
                case "--session-dir" -> sessionDir = Path.of(parser.value(arg));
                case "--session" -> sessionFile = Path.of(parser.value(arg));
                case "--continue", "-c" -> continueSession = true;
                case "--api-key" -> apiKey = parser.value(arg);
                case "--tools" -> tools = Arrays.stream(parser.value(arg).split(","))
                        .map(String::trim).filter(name -> !name.isEmpty()).toList();
                case "--no-model-fallback" -> noFallback = true;
                case "--faux-script" -> fauxScript = Path.of(parser.value(arg));
                case "--updates" -> {
                    String value = parser.value(arg);
                    updates = switch (value) {
                        case "full" -> UpdateMode.FULL;
                        case "delta" -> UpdateMode.DELTA;
                        default -> throw new UsageException("--updates must be full or delta, got '" + value + "'");
                    };
                }
                case "--verbose" -> verbose = true; // applied by Main before parsing (LogLevel)
                case "--version", "-v" -> version = true;
                case "--help", "-h" -> help = true;
                default -> throw new UsageException("unknown argument '" + arg + "' (see --help)");
            }
        }
        if (sessionFile != null && continueSession) {
            throw new UsageException("--session and --continue cannot be combined");
        }
        return new CliOptions(mode, provider, model, thinking, noSession, sessionDir, sessionFile, continueSession,
                apiKey, tools, noFallback, fauxScript, updates, verbose, version, help);
    }

    /**
     * {@code agentd trust [DIR]}: the directory to trust ({@code ""} for the current one), or
     * empty when the command line is not this subcommand.
     */
    public static Optional<Path> trustTarget(String... args) throws UsageException {
        if (args.length == 0 || !args[0].equals("trust")) {
            return Optional.empty();
        }
        if (args.length == 1) {
            return Optional.of(Path.of(""));
        }
        if (args.length == 2 && !args[1].startsWith("-") && !args[1].isEmpty()) {
            try {
                return Optional.of(Path.of(args[1]));
            } catch (java.nio.file.InvalidPathException e) {
                throw new UsageException("trust: not a path: '" + args[1] + "'");
            }
        }
        throw new UsageException("usage: agentd trust [DIR]");
    }

    public Optional<String> apiKeyValue() {
        return Optional.ofNullable(apiKey);
    }

    @Override
    public String toString() {
        return "CliOptions[mode=" + mode + ", provider=" + provider + ", model=" + model + ", apiKey="
                + (apiKey == null ? "none" : "<redacted>") + "]";
    }

    private static final class Parser {
        private final List<String> args;
        private int index;

        Parser(String[] args) {
            this.args = new ArrayList<>(Arrays.asList(args));
        }

        boolean hasNext() {
            return index < args.size();
        }

        String next() {
            String arg = args.get(index++);
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                args.add(index, arg.substring(equals + 1));
                return arg.substring(0, equals);
            }
            return arg;
        }

        String value(String option) throws UsageException {
            if (!hasNext()) {
                throw new UsageException(option + " needs a value");
            }
            return args.get(index++);
        }
    }
}
