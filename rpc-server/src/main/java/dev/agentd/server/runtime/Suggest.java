package dev.agentd.server.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for config keys and model ids: the candidates within a small edit distance,
 * compared case-insensitively and ignoring {@code _}/{@code -}. Plain dynamic programming over at
 * most {@link #MAX_CHARS} characters per word (no regex): a hostile config file costs nothing.
 */
public final class Suggest {
    public static final int MAX_CHARS = 64;
    /** Score step per edit: a containment match always ranks after every typo within the budget. */
    private static final int CONTAINED = 1_000;

    private Suggest() {}

    /** The closest candidate, if one is near enough to be a likely typo. */
    public static Optional<String> closest(String word, Collection<String> candidates) {
        List<String> near = nearest(word, candidates, 1);
        return near.isEmpty() ? Optional.empty() : Optional.of(near.get(0));
    }

    /**
     * Up to {@code limit} candidates, best first: those containing {@code word} (a prefix of an id,
     * such as {@code llama3} for {@code llama3.1:8b}), then those within the typo distance.
     */
    public static List<String> nearest(String word, Collection<String> candidates, int limit) {
        String w = fold(word);
        if (w.isEmpty()) {
            return List.of();
        }
        int budget = Math.min(3, Math.max(1, (w.length() + 2) / 3));
        record Scored(String candidate, int score) {}
        List<Scored> scored = new ArrayList<>();
        // Typos rank first, by distance; then candidates containing the word, the shorter the better.
        for (String candidate : candidates) {
            String c = fold(candidate);
            int d = c.equals(w) ? 0 : distance(w, c, budget);
            if (d <= budget && !candidate.equals(word)) {
                scored.add(new Scored(candidate, d * CONTAINED));
            } else if (w.length() >= 3 && c.contains(w)) {
                scored.add(new Scored(candidate, budget * CONTAINED + 1 + c.length() - w.length()));
            }
        }
        return scored.stream().sorted(Comparator.comparingInt(Scored::score).thenComparing(Scored::candidate))
                .map(Scored::candidate).distinct().limit(limit).toList();
    }

    /** " (did you mean 'x'?)" or "". */
    public static String didYouMean(String word, Collection<String> candidates) {
        return closest(word, candidates).map(best -> " (did you mean '" + best + "'?)").orElse("");
    }

    private static String fold(String text) {
        String lower = text == null ? "" : text.toLowerCase(Locale.ROOT);
        StringBuilder folded = new StringBuilder(Math.min(lower.length(), MAX_CHARS));
        for (int i = 0; i < lower.length() && folded.length() < MAX_CHARS; i++) {
            char ch = lower.charAt(i);
            if (ch != '_' && ch != '-') {
                folded.append(ch);
            }
        }
        return folded.toString();
    }

    /**
     * Edit distance counting a swap of neighbours as one edit (optimal string alignment), or
     * {@code budget + 1} as soon as it must exceed the budget.
     */
    static int distance(String a, String b, int budget) {
        if (Math.abs(a.length() - b.length()) > budget) {
            return budget + 1;
        }
        int[] older = new int[b.length() + 1];
        int[] previous = new int[b.length() + 1];
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            row[0] = i;
            int best = row[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                row[j] = Math.min(Math.min(row[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    row[j] = Math.min(row[j], older[j - 2] + 1);
                }
                best = Math.min(best, row[j]);
            }
            if (best > budget) {
                return budget + 1;
            }
            int[] swap = older;
            older = previous;
            previous = row;
            row = swap;
        }
        return previous[b.length()];
    }
}
