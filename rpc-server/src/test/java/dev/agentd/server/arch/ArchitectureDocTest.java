package dev.agentd.server.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The package table of docs/ARCHITECTURE.md §2 says what the build enforces: one row per row of
 * {@link LayerRules#MAY_IMPORT}, and each row's "may import" column names exactly its entries
 * ({@code protocol} and {@code records} as words, packages and classes as code spans; "every
 * package" and "nothing" as in the package-infos). So the document a newcomer reads first cannot
 * drift from the rules again.
 */
class ArchitectureDocTest {
    private static final Path DOC = Path.of("../docs/ARCHITECTURE.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** Package → its "may import" cell, in the order of the table. */
    static Map<String, String> table(String markdown) {
        int header = markdown.indexOf("| package | holds | may import |");
        assertTrue(header >= 0, "§2 has its package table");
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : markdown.substring(header).split("\n")) {
            if (!line.startsWith("|")) {
                break;
            }
            List<String> cells = cells(line);
            Matcher name = CODE.matcher(cells.get(0));
            if (cells.size() == 3 && name.matches()) {
                rows.put(name.group(1), cells.get(2));
            }
        }
        return rows;
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1, line.lastIndexOf('|')).split("\\|")) {
            cells.add(cell.trim());
        }
        return cells;
    }

    /** The entries a cell names, spelled as in {@link LayerRules#MAY_IMPORT}. */
    static Set<String> entries(String cell) {
        Set<String> named = new TreeSet<>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            named.add(code.group(1));
        }
        String words = CODE.matcher(cell).replaceAll("");
        if (words.matches("(?s).*\\bprotocol\\b.*")) {
            named.add(LayerRules.PROTOCOL);
        }
        if (words.matches("(?s).*\\brecords\\b.*")) {
            named.add(LayerRules.RECORDS);
        }
        return named;
    }

    private static String doc() throws IOException {
        return Files.readString(DOC, StandardCharsets.UTF_8);
    }

    @Test
    void theTableHasARowForEveryRuleAndNoOther() throws IOException {
        assertEquals(new TreeSet<>(LayerRules.MAY_IMPORT.keySet()), new TreeSet<>(table(doc()).keySet()));
    }

    @Test
    void theParserReadsTheCellsItIsMeantFor() {
        assertEquals(Set.of("protocol", "records", "ai..", "recovery.ErrorClass"),
                entries("protocol, `ai..`, `recovery.ErrorClass`, records"));
        assertEquals(Map.of("x", "protocol, `y`"), table("| package | holds | may import |\n|---|---|---|\n"
                + "| `x` | holds `protocol` things | protocol, `y` |\n\nafter"));
    }

    @TestFactory
    Stream<DynamicTest> eachRowNamesWhatItsRuleAllows() throws IOException {
        return table(doc()).entrySet().stream().filter(row -> LayerRules.MAY_IMPORT.containsKey(row.getKey()))
                .map(row -> DynamicTest.dynamicTest(row.getKey(), () -> check(row.getKey(), row.getValue())));
    }

    private static void check(String pkg, String cell) {
        List<String> rule = LayerRules.MAY_IMPORT.get(pkg);
        if (cell.equals("nothing")) {
            assertEquals(List.of(), rule, pkg + ": the table says it imports nothing");
            return;
        }
        if (cell.equals("every package")) {
            for (String top : LayerRules.MAY_IMPORT.keySet()) {
                if (!top.contains(".") && !top.equals(pkg)) {
                    assertTrue(rule.contains(top) || rule.contains(top + ".."), pkg + " may import " + top);
                }
            }
            return;
        }
        assertEquals(new TreeSet<>(rule), entries(cell), pkg + ": the table's column against LayerRules");
    }
}
