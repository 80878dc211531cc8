package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code grep {pattern, path?, glob?, ignoreCase?, literal?, context?, limit?}}: a Java regex (or
 * literal) searched line by line in the text files below a path, honouring {@code .gitignore}.
 * Matches print as {@code file:line: text}, context lines as {@code file-line- text}.
 */
public final class GrepTool extends BaseTool {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LINE_CHARS = 500;
    /** Longer lines are searched in their first this many chars only: memory and regex effort stay bounded. */
    static final int MAX_SCAN_CHARS = 256 * 1024;
    private static final ToolParams PARAMS = ToolParams.builder()
            .required("pattern", Type.STRING, "Java regular expression to search for (or plain text with literal=true)")
            .optional("path", Type.STRING, "Directory or file to search (default: the working directory)")
            .optional("glob", Type.STRING, "Only search files matching this glob, e.g. '*.java' or 'src/**/*.ts'")
            .optional("ignoreCase", Type.BOOLEAN, "Case-insensitive search (default false)")
            .optional("literal", Type.BOOLEAN, "Treat the pattern as plain text, not a regex (default false)")
            .optional("context", Type.INTEGER, "Lines of context to show before and after each match (default 0)")
            .optional("limit", Type.INTEGER, "Maximum number of matches to return (default " + DEFAULT_LIMIT + ")")
            .build();

    private final PathResolver paths;

    public GrepTool(PathResolver paths) {
        super("grep", "Search file contents for a regular expression (Java syntax) or literal text. Skips binary "
                + "files, .git and paths ignored by .gitignore. Output lines are 'file:line: text'. Returns at most "
                + DEFAULT_LIMIT + " matches unless limit says otherwise; long lines are cut to " + MAX_LINE_CHARS
                + " characters.", PARAMS);
        this.paths = paths;
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws IOException {
        String raw = args.string("path", ".");
        int context = LsTool.orDefault(args.integerAtLeast("context", 0), 0);
        int limit = LsTool.orDefault(args.integerAtLeast("limit", 1), DEFAULT_LIMIT);
        Pattern pattern = compile(args.string("pattern"), args.bool("literal", false), args.bool("ignoreCase", false));
        GlobFilter glob = args.string("glob") == null ? null : GlobFilter.of(args.string("glob"));
        Path root = paths.resolve(raw);
        if (!Files.exists(root)) {
            throw new ToolException("Path not found: " + raw);
        }
        Search search = new Search(pattern, context, limit, cancel);
        if (Files.isDirectory(root)) {
            new FileWalker(cancel).walk(root, entry -> {
                if (!entry.directory() && (glob == null || glob.matches(entry.relative()))) {
                    search.file(entry.path(), entry.relative());
                }
                return !search.limitReached();
            });
        } else {
            PathResolver.requireOpenable(root, raw);
            search.file(root, root.getFileName().toString());
        }
        if (cancel.isCancelled()) {
            throw new ToolException("Search aborted");
        }
        if (search.matches == 0) {
            return ToolResult.text("No matches found");
        }
        return result(search, limit);
    }

    private static ToolResult result(Search search, int limit) {
        Truncation.Result shown = Truncation.head(String.join("\n", search.out), Integer.MAX_VALUE,
                Truncation.MAX_BYTES);
        StringBuilder text = new StringBuilder(shown.content());
        List<String> notes = new ArrayList<>();
        ObjectNode details = Json.mapper().createObjectNode();
        if (search.limitReached()) {
            notes.add(limit + " matches limit reached. Use limit=" + (limit * 2L) + " for more, or refine the pattern.");
            details.put("matchLimitReached", limit);
        }
        if (shown.truncated()) {
            notes.add("Output truncated at " + Truncation.formatSize(Truncation.MAX_BYTES) + ".");
            details.set("truncation", shown.toJson());
        }
        if (search.linesNotFullySearched) {
            notes.add("Lines longer than " + MAX_SCAN_CHARS + " characters were searched in their first "
                    + MAX_SCAN_CHARS + " only.");
        }
        if (search.linesCut) {
            notes.add("Some lines were cut to " + MAX_LINE_CHARS + " characters; use read to see them in full.");
            details.put("linesTruncated", true);
        }
        if (!notes.isEmpty()) {
            text.append("\n\n[").append(String.join(" ", notes)).append(']');
        }
        return new ToolResult(List.of(new ContentBlock.Text(text.toString())), details.isEmpty() ? null : details,
                false);
    }

    private static Pattern compile(String pattern, boolean literal, boolean ignoreCase) {
        int flags = ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
        try {
            return Pattern.compile(literal ? Pattern.quote(pattern) : pattern, flags);
        } catch (PatternSyntaxException e) {
            throw new ToolException("Invalid regex pattern: " + e.getDescription() + " near index " + e.getIndex()
                    + " in '" + pattern + "' (use literal=true to search for plain text)");
        }
    }

    /** The matches collected so far over all files. */
    private static final class Search {
        private final Pattern pattern;
        private final int context;
        private final int limit;
        private final CancellationToken cancel;
        final List<String> out = new ArrayList<>();
        int matches;
        boolean linesCut;
        boolean linesNotFullySearched;

        Search(Pattern pattern, int context, int limit, CancellationToken cancel) {
            this.pattern = pattern;
            this.context = context;
            this.limit = limit;
            this.cancel = cancel;
        }

        boolean limitReached() {
            return matches >= limit;
        }

        void file(Path file, String label) {
            try {
                if (!Files.isRegularFile(file) || FileKind.detect(file).kind() != FileKind.Kind.TEXT) {
                    return;
                }
                scan(file, label);
            } catch (ToolException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                // An unreadable file is skipped, as grep -s does.
            }
        }

        private void scan(Path file, String label) throws IOException {
            Deque<BoundedLines.Line> before = new ArrayDeque<>();
            long lineNo = 0;
            long lastPrinted = 0;
            int afterLeft = 0;
            try (BoundedLines reader = new BoundedLines(file, MAX_SCAN_CHARS, cancel)) {
                BoundedLines.Line line;
                while ((line = reader.next()) != null) {
                    lineNo++;
                    if (!limitReached() && matches(line, label, lineNo)) {
                        long first = lineNo - before.size();
                        if (context > 0 && lastPrinted > 0 && first > lastPrinted + 1) {
                            out.add("--");
                        }
                        for (BoundedLines.Line previous : before) {
                            out.add(label + "-" + first++ + "- " + cut(previous));
                        }
                        before.clear();
                        out.add(label + ":" + lineNo + ": " + cut(line));
                        matches++;
                        lastPrinted = lineNo;
                        afterLeft = context;
                    } else if (afterLeft > 0) {
                        out.add(label + "-" + lineNo + "- " + cut(line));
                        lastPrinted = lineNo;
                        afterLeft--;
                    } else if (limitReached()) {
                        return;
                    } else if (context > 0) {
                        before.addLast(line);
                        if (before.size() > context) {
                            before.removeFirst();
                        }
                    }
                }
            }
        }

        /**
         * {@code java.util.regex} backtracks recursively: a nested group on a long line overflows the
         * stack, and a catastrophic pattern may run for ages. Both become a tool error, never a
         * wedged run: the stack overflow is caught here, and the text checks abort as it is read.
         */
        private boolean matches(BoundedLines.Line line, String label, long lineNo) {
            if (line.cut()) {
                linesNotFullySearched = true;
            }
            try {
                return pattern.matcher(new AbortableText(line.text(), cancel)).find();
            } catch (StackOverflowError e) {
                throw new ToolException("Pattern too complex for line " + lineNo + " of " + label + " ("
                        + line.length() + " chars): simplify it (avoid repeated groups such as (a|b)+) or use "
                        + "literal=true");
            }
        }

        private String cut(BoundedLines.Line line) {
            if (line.length() <= MAX_LINE_CHARS) {
                return line.text();
            }
            linesCut = true;
            return line.shown(MAX_LINE_CHARS);
        }
    }

    /** A line whose reading checks for abort now and then, so a runaway regex can be stopped. */
    private static final class AbortableText implements CharSequence {
        private final String text;
        private final CancellationToken cancel;
        private int reads;

        AbortableText(String text, CancellationToken cancel) {
            this.text = text;
            this.cancel = cancel;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if ((++reads & 0xFFF) == 0 && cancel.isCancelled()) {
                throw new ToolException("Search aborted");
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new AbortableText(text.substring(start, end), cancel);
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
