package io.notify.devstack;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * JUnit 5 extension that gives integration tests a real Kafka and Redis through an {@link Infra}:
 * a parameter of a test method, lifecycle method or constructor, or any non-final field of type
 * {@code Infra} that is null (static fields get the class-level Infra before {@code @BeforeAll}).
 *
 * <pre>
 * &#64;ExtendWith(NotifyInfraExtension.class)
 * class OrdersIT {
 *     &#64;Test
 *     void roundTrip(Infra infra) {
 *         String topic = infra.createTopic(infra.name("orders"), 3);
 *         ...
 *     }
 * }
 * </pre>
 *
 * <p>Guarantees: one Kafka and one Redis per test run (one per test JVM under Surefire/Failsafe),
 * started at first use and stopped when the run ends (root {@code ExtensionContext.Store}); a fresh
 * prefix per test class and per test method. The backend is chosen by the configuration parameter
 * or system property {@value #MODE_PROPERTY}: {@code embedded} (default; in-process KRaft broker and a
 * {@code redis-server} child, never Docker) or {@code testcontainers} (Docker containers; needs the
 * optional {@code org.testcontainers:kafka} dependency; without a Docker engine every class using
 * this extension is skipped — Surefire/Failsafe count its tests as skipped — and the build stays
 * green). An unknown mode fails the class with a message naming {@value #MODE_PROPERTY}.
 */
public final class NotifyInfraExtension
        implements ExecutionCondition, BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {

    /** Selects the backend: {@code embedded} (default) or {@code testcontainers}. */
    public static final String MODE_PROPERTY = "notify.it.infra";

    static final String NO_DOCKER = MODE_PROPERTY + "=testcontainers but no Docker engine is available: skipped";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NotifyInfraExtension.class);

    @Override
    public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
        // constructors and fields of per-method instances get the test method's prefix, not the class's
        return ExtensionContextScope.TEST_METHOD;
    }

    /**
     * Testcontainers mode without a Docker engine: the class is skipped before anything runs, so
     * Surefire/Failsafe report its tests as skipped and the build stays green.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (mode(context) == Mode.TESTCONTAINERS) {
            requireTestcontainersOnClasspath();
            if (!TestcontainersBackend.dockerAvailable()) {
                return ConditionEvaluationResult.disabled(NO_DOCKER);
            }
        }
        return ConditionEvaluationResult.enabled("infra available");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        shared(context);
        inject(null, context.getRequiredTestClass(), context, true);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws IllegalAccessException {
        inject(testInstance, testInstance.getClass(), context, false);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == Infra.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return infra(extensionContext);
    }

    /** The {@link Infra} of this context (test method or class), created with a fresh prefix on first use. */
    private static Infra infra(ExtensionContext context) {
        SharedInfra shared = shared(context);
        // parent stores are visible from child contexts: key by unique id so a method never sees its class's Infra
        return context.getStore(NAMESPACE).getOrComputeIfAbsent("infra:" + context.getUniqueId(),
                key -> new Infra(shared, Prefixes.next()), Infra.class);
    }

    private static SharedInfra shared(ExtensionContext context) {
        Mode mode = mode(context);
        if (mode == Mode.TESTCONTAINERS) {
            requireTestcontainersOnClasspath();
            // evaluateExecutionCondition normally skipped the class already; should Docker vanish
            // in between, abort (reported as skipped) rather than fail
            Assumptions.assumeTrue(TestcontainersBackend.dockerAvailable(), NO_DOCKER);
        }
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SharedInfra.class,
                key -> SharedInfra.start(mode == Mode.TESTCONTAINERS
                        ? TestcontainersBackend.start(
                                context.getConfigurationParameter(TestcontainersBackend.KAFKA_IMAGE_PROPERTY)
                                        .orElse(TestcontainersBackend.DEFAULT_KAFKA_IMAGE),
                                context.getConfigurationParameter(TestcontainersBackend.REDIS_IMAGE_PROPERTY)
                                        .orElse(TestcontainersBackend.DEFAULT_REDIS_IMAGE))
                        : InfraBackend.embedded()),
                SharedInfra.class);
    }

    private enum Mode { EMBEDDED, TESTCONTAINERS }

    private static Mode mode(ExtensionContext context) {
        String value = context.getConfigurationParameter(MODE_PROPERTY).orElse("embedded").trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "", "embedded" -> Mode.EMBEDDED;
            case "testcontainers" -> Mode.TESTCONTAINERS;
            default -> throw new ExtensionConfigurationException(
                    MODE_PROPERTY + " must be 'embedded' or 'testcontainers', was '" + value + "'");
        };
    }

    private static void requireTestcontainersOnClasspath() {
        try {
            Class.forName("org.testcontainers.kafka.KafkaContainer", false, NotifyInfraExtension.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExtensionConfigurationException(MODE_PROPERTY + "=testcontainers needs the test dependency "
                    + "org.testcontainers:kafka (version from the parent's testcontainers-bom)", e);
        }
    }

    /** Sets every non-final field of type {@link Infra} that is still null (final ones belong to constructors). */
    private static void inject(Object instance, Class<?> type, ExtensionContext context, boolean statics)
            throws IllegalAccessException {
        List<Field> fields = ReflectionSupport.findFields(type,
                f -> f.getType() == Infra.class
                        && Modifier.isStatic(f.getModifiers()) == statics
                        && !Modifier.isFinal(f.getModifiers()),
                HierarchyTraversalMode.TOP_DOWN);
        for (Field field : fields) {
            field.setAccessible(true);
            if (field.get(instance) == null) {
                field.set(instance, infra(context));
            }
        }
    }
}
