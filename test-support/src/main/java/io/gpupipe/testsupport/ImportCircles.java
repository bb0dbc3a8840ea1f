package io.gpupipe.testsupport;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URL;

/**
 * The rule every module keeps: its main code has no import circle, neither between packages nor between top-level
 * classes (a class's nested classes count as part of it). A circle means none of its members can be read, tested or
 * moved alone; the package rule also keeps each package's place in the module's layering visible (the wiring on top,
 * adapters and domain below it). A module's {@code ImportCirclesTest} imports its own compiled main classes once
 * ({@link #mainClassesBeside}) and checks both rules; classes of other modules are never imported, and a circle
 * across modules cannot compile.
 */
public final class ImportCircles {
    private static final String ROOT = "io.gpupipe.";

    /** No circle among the module's packages ({@code io.gpupipe.router} and {@code io.gpupipe.router.aws} differ). */
    public static final ArchRule BETWEEN_PACKAGES = slices().matching("io.gpupipe.(**)")
            .namingSlices("package io.gpupipe.$1")
            .should().beFreeOfCycles();

    /** No circle among the module's top-level classes, which a package rule misses inside one package. */
    public static final ArchRule BETWEEN_CLASSES = slices().assignedFrom(new ByTopLevelClass())
            .should().beFreeOfCycles();

    private ImportCircles() {
    }

    /**
     * The main classes compiled into the same place as {@code mainClass} (the module's {@code target/classes}, or its
     * jar): only this module's, without its tests and dependencies.
     */
    public static JavaClasses mainClassesBeside(Class<?> mainClass) {
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
