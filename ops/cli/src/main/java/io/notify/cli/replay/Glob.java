package io.notify.cli.replay;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A shell-style glob over a whole value, case-sensitive: {@code *} matches any run of characters
 * (also none, also dots), {@code ?} exactly one; every other character stands for itself. So
 * {@code order.*} matches {@code order.shipped} but not {@code order} or {@code reorder.shipped}.
 */
final class Glob {

    private Glob() {
    }

    static Predicate<String> compile(String glob) {
        if (glob == null || glob.isEmpty()) {
            throw new UsageException("--type: the glob is empty");
        }
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return value -> value != null && p.matcher(value).matches();
    }
}
