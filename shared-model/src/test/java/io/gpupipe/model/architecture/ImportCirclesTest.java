package io.gpupipe.model.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * No two classes of the domain depend on each other, directly or through others: a circle means neither can be
 * read, tested or moved alone. Each top-level class is its own slice (its nested classes count as part of it), so
 * the rule sees class circles that a package-level rule would miss, such as one that once ran from the job through
 * its id derivation and the request validator back to the job. No two packages do either, so the layering stays
 * readable: the vocabulary every job speaks in {@code io.gpupipe.model} (tiers, tasks, field errors, JSON, digests),
 * the parts of a job in their own packages ({@code owner}, {@code format}, {@code embedding}, ...), the job itself
 * in {@code job}, and what works on jobs ({@code batch}, {@code cache}, {@code routing}, ...) above it. (The same
 * two rules as {@code io.gpupipe.testsupport.ImportCircles}, which every other module extends; this module cannot,
 * as test-support is built on it.)
 */
class ImportCirclesTest {
    private static final JavaClasses DOMAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.gpupipe.model");

    @Test
    void domainPackages_shouldFormNoImportCircle() {
        slices().matching("io.gpupipe.(**)").namingSlices("package io.gpupipe.$1").should().beFreeOfCycles()
                .check(DOMAIN);
    }

    @Test
    void domainClasses_shouldFormNoImportCircle() {
        slices().assignedFrom(new ByTopLevelClass()).should().beFreeOfCycles().check(DOMAIN);
    }

    /** One slice per top-level class of the domain. */
    private static final class ByTopLevelClass implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getName();
            if (!name.startsWith("io.gpupipe.model.")) {
                return SliceIdentifier.ignore();
            }
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "top-level classes of io.gpupipe.model";
        }
    }
}
