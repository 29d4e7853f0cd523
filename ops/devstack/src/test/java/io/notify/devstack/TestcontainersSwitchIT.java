package io.notify.devstack;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.cause;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.DockerClientFactory;

/** Runs small fixture classes through the JUnit engine with {@code notify.it.infra} set. */
class TestcontainersSwitchIT {

    @Test
    void withoutDockerTestsUsingTheExtensionAreSkippedNotFailed() {
        assumeFalse(DockerClientFactory.instance().isDockerAvailable(), "a Docker engine is present here");

        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter(NotifyInfraExtension.MODE_PROPERTY, "testcontainers")
                .selectors(selectClass(PerMethodFixture.class), selectClass(PerClassFixture.class))
                .execute();

        // both classes skipped before construction (Surefire/Failsafe count their tests as skipped)
        results.containerEvents().assertStatistics(stats -> stats.skipped(2).failed(0).aborted(0));
        results.containerEvents().assertThatEvents().haveExactly(2,
                event(skippedWithReason(NotifyInfraExtension.NO_DOCKER)));
        results.testEvents().assertStatistics(stats -> stats.started(0).failed(0));
    }

    @Test
    void unknownModeFailsAndNamesTheProperty() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter(NotifyInfraExtension.MODE_PROPERTY, "kubernetes")
                .selectors(selectClass(PerMethodFixture.class))
                .execute();

        // JUnit wraps it in a ConditionEvaluationException; the message names key and value
        results.containerEvents().assertThatEvents().haveExactly(1, event(container(PerMethodFixture.class),
                finishedWithFailure(cause(instanceOf(ExtensionConfigurationException.class)),
                        message(m -> m.contains("notify.it.infra") && m.contains("kubernetes")))));
    }

    @ExtendWith(NotifyInfraExtension.class)
    static class PerMethodFixture {
        @Test
        void usesInfra(Infra infra) {
            throw new AssertionError("must not run without Docker: " + infra);
        }
    }

    @ExtendWith(NotifyInfraExtension.class)
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class PerClassFixture {
        PerClassFixture(Infra infra) {
            throw new AssertionError("must not be constructed without Docker: " + infra);
        }

        @Test
        void usesInfra() {
        }
    }
}
