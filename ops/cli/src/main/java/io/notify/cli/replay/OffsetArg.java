package io.notify.cli.replay;

import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An offset bound from {@code --from-offset}/{@code --to-offset}: one offset for every partition
 * ({@code 1200}) or offsets of named partitions ({@code 0:1200,3:77}). Immutable.
 *
 * @param all         the offset for every partition, when one number was given
 * @param byPartition the named partitions' offsets, when the per-partition form was given
 */
record OffsetArg(OptionalLong all, Map<Integer, Long> byPartition) {

    OffsetArg {
        byPartition = Map.copyOf(byPartition);
    }

    static OffsetArg parse(String flag, String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new UsageException(flag + ": an offset is required (1200, or partition:offset pairs such as 0:1200,3:77)");
        }
        if (!t.contains(":")) {
            return new OffsetArg(OptionalLong.of(number(flag, t, t)), Map.of());
        }
        Map<Integer, Long> byPartition = new TreeMap<>();
        for (String pair : t.split(",", -1)) {
            String[] pf = pair.trim().split(":", -1);
            if (pf.length != 2) {
                throw new UsageException(flag + ": cannot read '" + pair + "' in '" + t
                        + "'; expected partition:offset pairs such as 0:1200,3:77");
            }
            long partition = number(flag, pf[0].trim(), t);
            if (partition > Integer.MAX_VALUE) {
                throw new UsageException(flag + ": partition " + partition + " is out of range");
            }
            if (byPartition.put((int) partition, number(flag, pf[1].trim(), t)) != null) {
                throw new UsageException(flag + ": partition " + partition + " is named twice in '" + t + "'");
            }
        }
        return new OffsetArg(OptionalLong.empty(), byPartition);
    }

    private static long number(String flag, String digits, String whole) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 18) {
            throw new UsageException(flag + ": '" + digits + "' in '" + whole + "' is not an offset (a whole number >= 0)");
        }
        return Long.parseLong(digits);
    }

    /** The bound for {@code partition}, or empty when this argument does not speak of it. */
    OptionalLong forPartition(int partition) {
        if (all.isPresent()) {
            return all;
        }
        Long o = byPartition.get(partition);
        return o == null ? OptionalLong.empty() : OptionalLong.of(o);
    }

    /** True when partitions were named: a {@code --from-offset} of that form reads only them. */
    boolean namesPartitions() {
        return !byPartition.isEmpty();
    }
}
