package io.notify.registry;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.notify.devstack.PackageCycles;
import org.junit.jupiter.api.Test;

/** This module's packages import each other without cycles, {@code io.notify.registry} itself included ({@link PackageCycles}). */
class ArchitectureTest {

    @Test
    void packagesAreFreeOfCyclesRootIncluded() {
        PackageCycles.assertNone("io.notify.registry");
    }

    /**
     * The registry's two sides meet only in its contract package (registry/README.md): the
     * gateway's {@code lease} side and the router's {@code route} side never use each other, and the
     * contract ({@code io.notify.registry} itself: key layout, member format, the routing rule) uses
     * neither.
     */
    @Test
    void registrySidesShareOnlyTheContract() {
        JavaClasses registry = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.notify.registry");
        noClasses().that().resideInAPackage("io.notify.registry.lease..")
                .should().dependOnClassesThat().resideInAPackage("io.notify.registry.route..").check(registry);
        noClasses().that().resideInAPackage("io.notify.registry.route..")
                .should().dependOnClassesThat().resideInAPackage("io.notify.registry.lease..").check(registry);
        noClasses().that().resideInAPackage("io.notify.registry")
                .should().dependOnClassesThat().resideInAnyPackage("io.notify.registry.lease..", "io.notify.registry.route..")
                .check(registry);
    }
}
