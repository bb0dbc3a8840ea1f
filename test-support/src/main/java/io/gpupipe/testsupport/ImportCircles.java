package io.gpupipe.testsupport;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The rule every module keeps: its main code has no import circle, neither between packages nor between top-level
 * classes (a class's nested classes count as part of it). A circle means none of its members can be read, tested or
 * moved alone; the package rule also keeps each package's place in the module's layering visible (the wiring on top,
 * adapters and domain below it). A module's {@code ImportCirclesTest} extends this class, naming any one of its main
 * classes: the module's compiled main classes are imported once (not its tests, not its dependencies; a circle across
 * modules cannot compile) and checked by both rules, and a failure lists each circle with the dependencies that make
 * it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ImportCircles {
    /** No circle among the module's packages ({@code io.gpupipe.router} and {@code io.gpupipe.router.aws} differ). */
    private static final ArchRule BETWEEN_PACKAGES = slices().matching("io.gpupipe.(**)")
            .namingSlices("package io.gpupipe.$1")
            .should().beFreeOfCycles();

    /** No circle among the module's top-level classes, which a package rule misses inside one package. */
    private static final ArchRule BETWEEN_CLASSES = slices().assignedFrom(new ByTopLevelClass())
            .should().beFreeOfCycles();

    private static final String ROOT = "io.gpupipe.";

    static {
        // A circle runs through the module's own classes only: reading the libraries they name from the class path
        // (ArchUnit's default) would only make the import slow.
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
    }

    private final JavaClasses main;

    /** {@code anyMainClass}: one of the module's main classes; the others are those compiled into the same place. */
    protected ImportCircles(Class<?> anyMainClass) {
        this.main = mainClassesBeside(anyMainClass);
    }

    @Test
    void packages_shouldFormNoImportCircle() {
        BETWEEN_PACKAGES.check(main);
    }

    @Test
    void topLevelClasses_shouldFormNoImportCircle() {
        BETWEEN_CLASSES.check(main);
    }

    /** The classes compiled into the same place as {@code mainClass}: the module's target/classes, or its jar. */
    private static JavaClasses mainClassesBeside(Class<?> mainClass) {
        URL location = mainClass.getProtectionDomain().getCodeSource().getLocation();
        return new ClassFileImporter().importUrl(location);
    }

    /** One slice per top-level class under {@code io.gpupipe}. */
    private static final class ByTopLevelClass implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getName();
            if (!name.startsWith(ROOT)) {
                return SliceIdentifier.ignore();
            }
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "top-level classes of io.gpupipe";
        }
    }
}
