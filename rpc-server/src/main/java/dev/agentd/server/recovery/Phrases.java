package dev.agentd.server.recovery;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A lower-case pattern of alternatives and the literal words ("anchors") at least one of which
 * every match contains. {@link #in} runs the pattern only when an anchor occurs: most provider
 * texts contain none, and {@code String.contains} over a 2000-character body costs a fraction of
 * trying a dozen alternatives at each of its positions. Keep the anchors in step with the
 * alternatives ({@code PhrasesTest} checks one sample per alternative).
 */
record Phrases(Pattern pattern, List<String> anchors) {

    static Phrases of(List<String> anchors, String... alternatives) {
        return new Phrases(Pattern.compile(String.join("|", alternatives), Pattern.DOTALL), List.copyOf(anchors));
    }

    /** True when {@code lowerText} (already lower-cased; null is no match) holds a match. */
    boolean in(String lowerText) {
        if (lowerText == null) {
            return false;
        }
        for (String anchor : anchors) {
            if (lowerText.contains(anchor)) {
                return pattern.matcher(lowerText).find();
            }
        }
        return false;
    }
}
