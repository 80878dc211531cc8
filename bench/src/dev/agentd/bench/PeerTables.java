package dev.agentd.bench;

import java.util.List;
import java.util.Locale;

/**
 * PeerBench's markdown: start-up, the reply, and issue 24's targets. Ratios are reference / row (above
 * 1: the row is faster or smaller than the reference, the first peer after agentd).
 */
final class PeerTables {
    private PeerTables() {}

    static void startup(List<PeerBench.Startup> startups, int runs) {
        PeerBench.Startup reference = startups.size() > 2 ? startups.get(1) : null;
        System.out.println("### Start-up: spawn → answer to the first get_state (ms), median of " + runs + " runs each");
        System.out.println();
        System.out.println("| | median | min | max | " + (reference == null ? "" : reference.label() + " / row | ")
                + "row − JVM floor |");
        System.out.println("|---|---|---|---|" + (reference == null ? "" : "---|") + "---|");
        Stats floor = startups.get(startups.size() - 1).stats();
        for (PeerBench.Startup s : startups) {
            System.out.println("| " + s.label() + " | **" + Stats.f0(s.stats().median()) + "** | "
                    + Stats.f0(s.stats().min()) + " | " + Stats.f0(s.stats().max()) + " | "
                    + (reference == null ? "" : ratio(reference.stats().median(), s.stats().median()) + " | ")
                    + Stats.f0(s.stats().median() - floor.median()) + " |");
        }
        System.out.println();
        System.out.println("The floor is a plain JVM (default flags, no archive) running a class that prints \"hi\";"
                + " every start is in a fresh agent and working directory, the sides taking turns.");
        System.out.println();
    }

    static void reply(List<PeerBench.Reply> replies, PeerBench.Reply floor, int deltas) {
        PeerBench.Reply reference = replies.size() > 2 ? replies.get(2) : null;
        String ref = reference == null ? "" : reference.label().replace(" (default)", "");
        System.out.println("### One reply of " + deltas + " deltas: prompt → agent_end, every stdout line parsed as JSON");
        System.out.println();
        System.out.println("| | update form (seen on the wire) | first reply, cold (ms) | warm replies, median (ms)"
                + " | stdout bytes per reply | message_update lines | peak RSS (MB)"
                + (reference == null ? "" : " | time: " + ref + " / row | bytes: " + ref + " / row") + " |");
        System.out.println("|---|---|---|---|---|---|---|" + (reference == null ? "" : "---|---|"));
        for (PeerBench.Reply r : replies) {
            row(r, reference);
        }
        row(floor, reference);
        System.out.println();
        System.out.println("Timed to agent_end (pi 1.6 follows it with agent_settled). Peak RSS is the daemon's VmHWM"
                + " after its replies. The floor's bytes are the HTTP response body, its updates the SSE chunks it parsed.");
        System.out.println();
    }

    private static void row(PeerBench.Reply r, PeerBench.Reply reference) {
        System.out.println("| " + r.label() + " | " + r.form() + " | " + Stats.f0(r.coldMs()) + " | **"
                + Stats.f0(r.warmMs()) + "** | " + String.format(Locale.ROOT, "%,d", r.bytes()) + " | " + r.updates()
                + " | " + mb(r.peakRssKb())
                + (reference == null ? "" : " | " + ratio(reference.warmMs(), r.warmMs()) + " | "
                        + ratio(reference.bytes(), r.bytes())) + " |");
    }

    /** Issue 24's targets against the reference peer (pi 1.6.0), agentd in its default form. */
    static void targets(List<PeerBench.Startup> startups, List<PeerBench.Reply> replies, PeerBench.Reply floor) {
        if (startups.size() < 3 || replies.size() < 3) {
            return; // no reference peer to compare with
        }
        double start = startups.get(0).stats().median();
        double refStart = startups.get(1).stats().median();
        PeerBench.Reply ours = replies.get(0);
        PeerBench.Reply ref = replies.get(2);
        String name = startups.get(1).label();
        System.out.println("### Targets (issue 24): agentd's default form against " + name);
        System.out.println();
        System.out.println("| measure | target | measured | met |");
        System.out.println("|---|---|---|---|");
        target("start-up median", "≤ 180 ms", Stats.f0(start) + " ms", start <= 180);
        target("start-up vs " + name, "≥ 3× faster", ratio(refStart, start), refStart / start >= 3);
        target("reply time vs " + name, "≥ 5× faster", ratio(ref.warmMs(), ours.warmMs()), ref.warmMs() / ours.warmMs() >= 5);
        target("reply time vs floor", "≤ 2× the floor", String.format(Locale.ROOT, "%.1f× the floor",
                ours.warmMs() / floor.warmMs()), ours.warmMs() <= 2 * floor.warmMs());
        target("stdout bytes per reply", "≤ " + name + "'s", String.format(Locale.ROOT, "%,d vs %,d", ours.bytes(),
                ref.bytes()), ours.bytes() <= ref.bytes());
        target("peak RSS", "≤ " + name + "'s", mb(ours.peakRssKb()) + " vs " + mb(ref.peakRssKb()) + " MB",
                ours.peakRssKb() > 0 && ref.peakRssKb() > 0 && ours.peakRssKb() <= ref.peakRssKb());
        System.out.println();
    }

    private static void target(String measure, String goal, String measured, boolean met) {
        System.out.println("| " + measure + " | " + goal + " | " + measured + " | " + (met ? "yes" : "**no**") + " |");
    }

    private static String mb(long kb) {
        return kb < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", kb / 1024.0);
    }

    private static String ratio(double reference, double row) {
        return String.format(Locale.ROOT, "%.1f×", reference / row);
    }
}
