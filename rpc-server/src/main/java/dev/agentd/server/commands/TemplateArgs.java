package dev.agentd.server.commands;

import java.util.ArrayList;
import java.util.List;

/**
 * pi's template argument syntax, by a single left-to-right scan (no regex on user text):
 * {@code $1}…{@code $9} (one argument), {@code $@} and {@code $ARGUMENTS} (all of them),
 * {@code ${@:N}} (from the N-th on). Arguments split on whitespace; double or single quotes group.
 */
public final class TemplateArgs {
    private TemplateArgs() {}

    public static List<String> split(String text) {
        List<String> args = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        boolean inArg = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    current.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inArg = true;
            } else if (Character.isWhitespace(c)) {
                if (inArg) {
                    args.add(current.toString());
                    current.setLength(0);
                    inArg = false;
                }
            } else {
                current.append(c);
                inArg = true;
            }
        }
        if (inArg) {
            args.add(current.toString());
        }
        return args;
    }

    public static String substitute(String body, List<String> args) {
        StringBuilder out = new StringBuilder(body.length());
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c != '$' || i + 1 >= body.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = body.charAt(i + 1);
            if (next >= '1' && next <= '9') {
                int index = next - '1';
                out.append(index < args.size() ? args.get(index) : "");
                i += 2;
            } else if (next == '@') {
                out.append(String.join(" ", args));
                i += 2;
            } else if (body.startsWith("ARGUMENTS", i + 1)) {
                out.append(String.join(" ", args));
                i += 1 + "ARGUMENTS".length();
            } else if (body.startsWith("{@:", i + 1) && body.indexOf('}', i + 4) > i + 4
                    && digits(body, i + 4, body.indexOf('}', i + 4))) {
                int close = body.indexOf('}', i + 4);
                int from = Integer.parseInt(body.substring(i + 4, close)) - 1;
                out.append(from < args.size() ? String.join(" ", args.subList(Math.max(0, from), args.size())) : "");
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static boolean digits(String text, int from, int to) {
        if (to - from < 1 || to - from > 4) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
