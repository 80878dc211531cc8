package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class IgnoreRulesTest {
    private final Path base = Path.of("/repo");
    private final IgnoreRules rules = IgnoreRules.parse(base, List.of(
            "# build output", "", "*.log", "!keep.log", "/dist", "out/", "docs/*.md", "**/generated", "\\#hash"));

    private Boolean decide(String relative, boolean directory) {
        return rules.decide(base.resolve(relative), directory);
    }

    @Test
    void namePatternsMatchAtAnyDepth() {
        assertEquals(Boolean.TRUE, decide("app.log", false));
        assertEquals(Boolean.TRUE, decide("a/b/app.log", false));
        assertNull(decide("app.txt", false));
        assertEquals(Boolean.TRUE, decide("x/generated", true));
        assertEquals(Boolean.TRUE, decide("generated", true));
        assertEquals(Boolean.TRUE, decide("#hash", false));
    }

    @Test
    void negationReincludes() {
        assertEquals(Boolean.FALSE, decide("keep.log", false));
    }

    @Test
    void slashesAnchorToTheBase() {
        assertEquals(Boolean.TRUE, decide("dist", true));
        assertNull(decide("sub/dist", true));
        assertEquals(Boolean.TRUE, decide("docs/guide.md", false));
        assertNull(decide("other/docs/guide.md", false));
        assertNull(decide("docs/deep/guide.md", false));
    }

    @Test
    void trailingSlashMatchesDirectoriesOnly() {
        assertEquals(Boolean.TRUE, decide("out", true));
        assertEquals(Boolean.TRUE, decide("a/out", true));
        assertNull(decide("out", false));
    }

    @Test
    void innerRuleSetsOverrideOuterOnes() {
        IgnoreRules inner = IgnoreRules.parse(base.resolve("sub"), List.of("!important.log"));
        assertTrue(IgnoreRules.ignored(List.of(rules), base.resolve("sub/important.log"), false));
        assertFalse(IgnoreRules.ignored(List.of(rules, inner), base.resolve("sub/important.log"), false));
        assertFalse(IgnoreRules.ignored(List.of(rules), Path.of("/elsewhere/a.log"), false));
    }
}
