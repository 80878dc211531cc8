package dev.agentd.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Order statistics of a sample, and the little formatting the tables need. */
final class Stats {
    private final List<Double> sorted;

    Stats(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        sorted = new ArrayList<>(values);
        Collections.sort(sorted);
    }

    double median() {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Nearest-rank percentile, {@code p} in 0..100. */
    double percentile(double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    double min() {
        return sorted.get(0);
    }

    double max() {
        return sorted.get(sorted.size() - 1);
    }

    int count() {
        return sorted.size();
    }

    static String f(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    static String f0(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Parses {@code --name value} options followed by an optional {@code -- command...}. */
    static final class Args {
        final java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        final List<String> command = new ArrayList<>();

        Args(String[] args) {
            int i = 0;
            for (; i < args.length && !args[i].equals("--"); i++) {
                if (!args[i].startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument " + args[i]);
                }
                String name = args[i].substring(2);
                boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
                options.put(name, flag ? "true" : args[++i]);
            }
            for (i++; i < args.length; i++) {
                command.add(args[i]);
            }
        }

        String get(String name, String fallback) {
            return options.getOrDefault(name, fallback);
        }

        int integer(String name, int fallback) {
            return Integer.parseInt(get(name, Integer.toString(fallback)));
        }
    }
}
