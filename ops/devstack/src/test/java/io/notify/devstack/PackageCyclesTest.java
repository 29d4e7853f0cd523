package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

class PackageCyclesTest {

    private static JavaClasses classesOf(String pkg) {
        return new ClassFileImporter().importPackages(pkg); // the fixtures are test classes themselves
    }

    @Test
    void aCycleThroughTheRootPackageFailsNamingItsClasses() {
        String root = "io.notify.devstack.cycles.root";
        AssertionError e = assertThrows(AssertionError.class, () -> PackageCycles.assertNone(root, classesOf(root)));
        assertTrue(e.getMessage().contains("Wiring") && e.getMessage().contains("Part"), e.getMessage());
    }

    @Test
    void aPackageDeclaredPartOfTheRootSharesItsSlice() {
        String root = "io.notify.devstack.cycles.root";
        PackageCycles.assertNone(root, classesOf(root), "sub");
    }

    @Test
    void aRootThatOnlyUsesItsSubpackagesPasses() {
        String root = "io.notify.devstack.cycles.clean";
        PackageCycles.assertNone(root, classesOf(root));
    }

    @Test
    void aRootWithNoClassesIsAnErrorNotAPass() {
        AssertionError e = assertThrows(AssertionError.class, () -> PackageCycles.assertNone("io.notify.nothing.here"));
        assertTrue(e.getMessage().contains("no product classes"), e.getMessage());
    }
}
