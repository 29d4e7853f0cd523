package io.notify.gateway.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Every log line of the JVM while open, with {@code io.notify} and {@code io.undertow} at DEBUG:
 * what tests read to prove a credential never reaches a log. {@link #close} restores the levels.
 */
public final class LogCapture implements AutoCloseable {

    private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
    private final Logger root;
    private final Logger notify;
    private final Logger undertow;
    private final Level notifyLevel;
    private final Level undertowLevel;

    public LogCapture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        captured.setContext(context);
        captured.start();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        notify = context.getLogger("io.notify");
        undertow = context.getLogger("io.undertow");
        notifyLevel = notify.getLevel();
        undertowLevel = undertow.getLevel();
        root.addAppender(captured);
        notify.setLevel(Level.DEBUG);
        undertow.setLevel(Level.DEBUG);
    }

    /** The lines logged so far: each formatted message, with its exception's message. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (ILoggingEvent e : List.copyOf(captured.list)) {
            lines.add(e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : e.getThrowableProxy().getMessage()));
        }
        return lines;
    }

    @Override
    public void close() {
        root.detachAppender(captured);
        notify.setLevel(notifyLevel);
        undertow.setLevel(undertowLevel);
    }
}
