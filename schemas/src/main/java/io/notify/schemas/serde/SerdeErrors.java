package io.notify.schemas.serde;

/** Short, single-line error texts for serde exceptions; the full detail stays in the cause. */
final class SerdeErrors {

    private SerdeErrors() {
    }

    /** The innermost message: a constructor's rule reads better than Jackson's wrapper around it. */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return firstLine(t);
    }

    static String firstLine(Throwable t) {
        String s = t.getMessage();
        if (s == null) {
            return t.getClass().getSimpleName();
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
