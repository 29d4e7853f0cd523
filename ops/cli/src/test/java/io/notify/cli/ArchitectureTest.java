package io.notify.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages of each product module depend on each other without cycles (docs/gateway.md,
 * "Packages"): a change that makes two packages import each other fails here, naming the classes.
 * This module's test classpath holds every product module, so one test covers them all.
 */
class ArchitectureTest {

    private static JavaClasses product;

    @BeforeAll
    static void importProductClasses() {
        // the other modules arrive as jars (or target/classes in an IDE); this module's tests are not product code
        product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.notify");
    }

    @Test
    void gatewayPackagesAreFreeOfCycles() {
        slices().matching("io.notify.gateway.(*)..").should().beFreeOfCycles().check(product);
    }

    @Test
    void fanoutPackagesAreFreeOfCycles() {
        slices().matching("io.notify.fanout.(*)..").should().beFreeOfCycles().check(product);
    }

    @Test
    void otherModulesPackagesAreFreeOfCycles() {
        for (String module : new String[] {"ingest", "registry", "client", "common", "schemas", "platform", "devstack", "cli"}) {
            slices().matching("io.notify." + module + ".(*)..").should().beFreeOfCycles().allowEmptyShould(true).check(product);
        }
    }

    /**
     * The registry's two sides meet only in its contract package (registry/README.md): the
     * gateway's {@code lease} side and the router's {@code route} side never use each other, and the
     * contract ({@code io.notify.registry} itself: key layout, member format, the routing rule) uses
     * neither.
     */
    @Test
    void registrySidesShareOnlyTheContract() {
        noClasses().that().resideInAPackage("io.notify.registry.lease..")
                .should().dependOnClassesThat().resideInAPackage("io.notify.registry.route..").check(product);
        noClasses().that().resideInAPackage("io.notify.registry.route..")
                .should().dependOnClassesThat().resideInAPackage("io.notify.registry.lease..").check(product);
        noClasses().that().resideInAPackage("io.notify.registry")
                .should().dependOnClassesThat().resideInAnyPackage("io.notify.registry.lease..", "io.notify.registry.route..")
                .check(product);
    }
}
