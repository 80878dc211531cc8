package dev.agentd.server.arch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The daemon's own classes obey docs/ARCHITECTURE.md: each package imports only what its
 * package-info says, no package cycles, and nothing but {@code cli.Main} touches the process's
 * standard streams. One dynamic test per rule, so a failure names the rule it broke.
 */
class LayeringTest {
    private static final String ROOT = "dev.agentd.server";
    private static JavaClasses daemon;

    @BeforeAll
    static void importMainClasses() {
        // The protocol module is imported too: the stdout rules cover it.
        daemon = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT, "dev.agentd.protocol");
    }

    @Test
    void theImportSeesTheWholeDaemon() {
        // Guards against a vacuous pass: an import that found nothing would satisfy every rule.
        assertTrue(daemon.contain(ROOT + ".cli.Main"), "cli.Main imported");
        assertTrue(daemon.contain("dev.agentd.protocol.jsonl.JsonlWriter"), "protocol imported");
        assertTrue(daemon.size() > 150, "classes imported: " + daemon.size());
    }

    @TestFactory
    Stream<DynamicTest> everyRuleHolds() {
        return new LayerRules(ROOT).all().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> check(rule)));
    }

    private static void check(ArchRule rule) {
        rule.check(daemon);
    }
}
