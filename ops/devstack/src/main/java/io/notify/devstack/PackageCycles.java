package io.notify.devstack;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;

/**
 * The one rule every module's architecture test states: the packages of a module import each other
 * without cycles, its root package included. Each top-level package under the root is one slice
 * (its subpackages with it), and the root package is a slice of its own, named {@value #ROOT}: a
 * root class that wires the subpackages while a subpackage uses one of its types (a metrics or a
 * config class) is the cycle that a {@code (*)..} pattern never sees. Product classes only (no
 * test classes); the failure names the classes on each cycle. Needs ArchUnit on the test classpath.
 */
public final class PackageCycles {

    static final String ROOT = "(root)";

    private PackageCycles() {
    }

    /**
     * Fails when the packages under {@code rootPackage} (e.g. {@code io.notify.fanout}) form a cycle.
     *
     * @param partOfRoot top-level packages that belong to the root's slice by design (the Java SDK's
     *                   {@code internal} engine, which implements the API the root declares and takes its
     *                   listeners); say why where it is used
     */
    public static void assertNone(String rootPackage, String... partOfRoot) {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage);
        assertNone(rootPackage, classes, partOfRoot);
    }

    static void assertNone(String rootPackage, JavaClasses classes, String... partOfRoot) {
        if (classes.isEmpty()) {
            throw new AssertionError("no product classes under " + rootPackage + ": the rule would check nothing");
        }
        slices().assignedFrom(byTopLevelPackage(rootPackage, Set.of(partOfRoot))).should().beFreeOfCycles().check(classes);
    }

    /** {@value #ROOT} for the root package itself, else the first package name below it. */
    static SliceAssignment byTopLevelPackage(String rootPackage, Set<String> partOfRoot) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                if (pkg.equals(rootPackage)) {
                    return SliceIdentifier.of(ROOT);
                }
                if (!pkg.startsWith(rootPackage + ".")) {
                    return SliceIdentifier.ignore();
                }
                String below = pkg.substring(rootPackage.length() + 1);
                int dot = below.indexOf('.');
                String top = dot < 0 ? below : below.substring(0, dot);
                return SliceIdentifier.of(partOfRoot.contains(top) ? ROOT : top);
            }

            @Override
            public String getDescription() {
                return "the packages of " + rootPackage + ", its root package included"
                        + (partOfRoot.isEmpty() ? "" : " (with " + String.join(", ", partOfRoot) + " as part of it)");
            }
        };
    }
}
