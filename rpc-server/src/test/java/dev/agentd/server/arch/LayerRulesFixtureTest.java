package dev.agentd.server.arch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules catch what they claim to: run against the deliberately broken classes under
 * {@code arch.fixture}, each kind of violation is reported and names the offending classes, and
 * what the table allows passes.
 */
class LayerRulesFixtureTest {
    private static final String ROOT = "dev.agentd.server.arch.fixture";
    private static final LayerRules RULES = new LayerRules(ROOT);
    private static JavaClasses fixture;

    @BeforeAll
    static void importFixture() {
        fixture = new ClassFileImporter().importPackages(ROOT);
    }

    @Test
    void anUpwardImportIsReported() {
        String report = violations(RULES.mayImport("tools"));
        assertTrue(report.contains("UpwardTool") && report.contains("FixtureSession"), report);
    }

    @Test
    void aDownwardImportPasses() {
        assertFalse(RULES.mayImport("session").evaluate(fixture).hasViolation());
        assertFalse(RULES.mayImport("agent").evaluate(fixture).hasViolation());
    }

    @Test
    void rpcMayReadRecordsFromBelowButNotCallServices() {
        String report = violations(RULES.mayImport("rpc"));
        assertTrue(report.contains("FixtureLoop"), report);
        assertFalse(report.contains("FixtureSettings"), report);
    }

    @Test
    void aPackageCycleIsReported() {
        String report = violations(RULES.noCycles());
        assertTrue(report.contains("Slice session") && report.contains("Slice tools"), report);
    }

    @Test
    void aPrintToStdoutIsReported() {
        String report = violations(RULES.stdout().get(0));
        assertTrue(report.contains("LoudClock.tick()") && report.contains("System.out"), report);
    }

    @Test
    void aPackageWithoutARowIsReported() {
        String report = violations(RULES.everyPackageHasARule());
        assertTrue(report.contains("Unlisted"), report);
        assertFalse(report.contains("UpwardTool"), report);
    }

    @Test
    void theFullSetFailsOnTheFixture() {
        List<ArchRule> failing = RULES.all().stream().filter(rule -> rule.evaluate(fixture).hasViolation()).toList();
        assertTrue(failing.size() >= 5, "rules failing: " + failing.size());
    }

    private static String violations(ArchRule rule) {
        EvaluationResult result = rule.evaluate(fixture);
        assertTrue(result.hasViolation(), rule.getDescription() + " reported nothing");
        return String.join("\n", result.getFailureReport().getDetails());
    }
}
