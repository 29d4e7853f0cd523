package io.notify.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of a {@link JavaProcess} child: runs {@code args[0]}'s {@code main} with the rest of
 * the arguments and ends (through the normal shutdown hooks) when the parent JVM is gone, detected
 * as end-of-file on standard input — so a crashed test run leaves no orphaned services behind.
 */
public final class ChildMain {

    private ChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread parentWatch = new Thread(() -> {
            InputStream in = System.in;
            try {
                while (in.read() != -1) {
                    // the parent never writes; end-of-file means it is gone
                }
            } catch (IOException e) {
                // a broken pipe also means the parent is gone
            }
            System.exit(0);
        }, "notify-child-parent-watch");
        parentWatch.setDaemon(true);
        parentWatch.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }
}
