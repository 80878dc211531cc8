package dev.agentd.server.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Each package-info's "May import" sentence names exactly the packages of its row in
 * {@link LayerRules#MAY_IMPORT}, so the prose a reader trusts and the rule the build enforces
 * cannot drift apart. The sentence starts at "May import" (or "Imports") and ends at the first
 * full stop; packages are written {@code {@code name}}, and "every package but …" stands for all
 * top-level packages except those named.
 */
class PackageInfoTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/agentd/server");
    private static final Pattern CODE = Pattern.compile("\\{@code ([^}]+)}");

    @Test
    void thePatternsMatchTheSentencesTheyAreMeantFor() {
        assertEquals("May import {@code protocol}, {@code ai} (tool definitions) and {@code runtime}",
                importSentence("The tools. May import {@code protocol}, {@code ai} (tool definitions) and "
                        + "{@code runtime}. <p>More, with {@code session}."));
        assertEquals(List.of("protocol", "ai.ToolDefinition"), codes("{@code protocol} and {@code ai.ToolDefinition}"));
    }

    @TestFactory
    Stream<DynamicTest> everyPackageInfoSaysWhatItsRuleEnforces() {
        return LayerRules.MAY_IMPORT.keySet().stream().sorted()
                .map(pkg -> DynamicTest.dynamicTest(pkg, () -> check(pkg)));
    }

    private static void check(String pkg) throws IOException {
        Path file = SOURCES.resolve(pkg.replace('.', '/')).resolve("package-info.java");
        String sentence = importSentence(javadoc(Files.readString(file, StandardCharsets.UTF_8)));
        List<String> row = LayerRules.MAY_IMPORT.get(pkg);
        if (sentence.contains("nothing from agentd")) {
            assertEquals(List.of(), row, pkg + ": the doc says it imports nothing");
            return;
        }
        if (sentence.contains("every package")) {
            int but = sentence.indexOf(" but ");
            Set<String> excluded = new TreeSet<>(but < 0 ? List.of() : codes(sentence.substring(but)));
            for (String top : topLevelPackages()) {
                if (!top.equals(pkg) && !excluded.contains(top)) {
                    assertTrue(row.contains(top) || row.contains(top + ".."), pkg + " may import " + top + ": " + row);
                }
            }
            return;
        }
        Set<String> named = new TreeSet<>(codes(sentence));
        for (String entry : row) {
            String word = entry.equals(LayerRules.RECORDS) ? null : entry;
            if (word == null) {
                assertTrue(sentence.contains("records"), pkg + ": the rule allows records; the doc must say so");
            } else {
                assertTrue(named.contains(word), pkg + ": the rule allows " + word + ", the doc does not name it: "
                        + sentence);
            }
        }
        for (String name : named) {
            if (LayerRules.MAY_IMPORT.containsKey(name) || name.equals(LayerRules.PROTOCOL)) {
                assertTrue(row.contains(name), pkg + ": the doc names " + name + ", the rule does not allow it");
            }
        }
    }

    private static List<String> topLevelPackages() {
        return LayerRules.MAY_IMPORT.keySet().stream().filter(p -> !p.contains(".")).sorted().toList();
    }

    /** The comment's text on one line, without the leading asterisks. */
    private static String javadoc(String source) {
        int start = source.indexOf("/**");
        int end = source.indexOf("*/", start);
        assertTrue(start >= 0 && end > start, "a package-info has a doc comment");
        return source.substring(start + 3, end).replaceAll("(?m)^\\s*\\*", " ").replaceAll("\\s+", " ").trim();
    }

    /** From "May import"/"Imports" to the first full stop followed by a space or the end. */
    static String importSentence(String text) {
        int start = text.indexOf("May import ");
        if (start < 0) {
            start = text.indexOf("Imports ");
        }
        assertTrue(start >= 0, "no \"May import\" sentence in: " + text);
        Matcher stop = Pattern.compile("\\.(\\s|$)").matcher(text);
        return stop.find(start) ? text.substring(start, stop.start()) : text.substring(start);
    }

    private static List<String> codes(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = CODE.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
