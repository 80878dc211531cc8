package dev.agentd.server.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * No loops between the classes of a wire package, {@code acp}, {@code rpc} and {@code wire} (W7:
 * {@code EditorTools} built {@code EditorTerminal}, which called back into {@code EditorTools}).
 * {@code LayeringTest} sees only loops between packages; this one sees a package's own files, each
 * top-level class with its nested classes as one slice.
 */
class ClassCyclesTest {
    private static final String ROOT = "dev.agentd.server";
    private static JavaClasses daemon;

    @BeforeAll
    static void importMainClasses() {
        daemon = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @TestFactory
    Stream<DynamicTest> theClassesOfEachWirePackageFormNoLoop() {
        return Stream.of("acp", "wire", "rpc").map(pkg -> DynamicTest.dynamicTest(pkg, () -> noLoopsIn(pkg).check(daemon)));
    }

    static ArchRule noLoopsIn(String relative) {
        String pkg = ROOT + "." + relative;
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                if (!type.getPackageName().equals(pkg)) {
                    return SliceIdentifier.ignore();
                }
                String name = type.getName().substring(pkg.length() + 1);
                int nested = name.indexOf('$');
                return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
            }

            @Override
            public String getDescription() {
                return "the top-level classes of " + pkg;
            }
        }).should().beFreeOfCycles().as("the classes of " + relative + " form no loop");
    }
}
