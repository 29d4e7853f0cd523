package io.notify.cli.doctor;

/**
 * One verdict of one check: what was found and, unless all is well, what to do about it.
 *
 * @param level   OK, WARN or FAIL
 * @param check   the check's name ({@code topics}, {@code redis}, {@code liveness}, {@code lag}, {@code clock})
 * @param problem what was found, one line
 * @param fix     what to do, one line; empty for OK
 */
record Finding(Level level, String check, String problem, String fix) {

    /** Worst first: the exit code of a run is that of its worst finding. */
    enum Level {
        OK(0), WARN(1), FAIL(2);

        private final int exitCode;

        Level(int exitCode) {
            this.exitCode = exitCode;
        }

        int exitCode() {
            return exitCode;
        }
    }

    static Finding ok(String check, String what) {
        return new Finding(Level.OK, check, what, "");
    }

    static Finding warn(String check, String problem, String fix) {
        return new Finding(Level.WARN, check, problem, fix);
    }

    static Finding fail(String check, String problem, String fix) {
        return new Finding(Level.FAIL, check, problem, fix);
    }

    /** {@code FAIL  topics    notify.inbox-state: ...}, then the fix indented on a second line. */
    String text() {
        String line = String.format("%-4s  %-8s  %s", level, check, problem);
        return fix.isEmpty() ? line : line + "\n" + " ".repeat(16) + "fix: " + fix;
    }
}
