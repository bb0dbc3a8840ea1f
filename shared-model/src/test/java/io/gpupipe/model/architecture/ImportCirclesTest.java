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
 * its id derivation and the request validator back to the job.
 */
class ImportCirclesTest {
    private static final JavaClasses DOMAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.gpupipe.model");

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
