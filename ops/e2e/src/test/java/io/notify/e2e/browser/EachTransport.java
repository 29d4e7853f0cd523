package io.notify.e2e.browser;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A browser test run once per transport of notify.js: its first parameter is {@code "ws"}, then {@code "sse"}. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "transport={0}")
@ValueSource(strings = {"ws", "sse"})
@interface EachTransport {
}
