package dev.pvtlb.cli;

import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.report.ProgressBar;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost half of {@code pvtlb assess}: munmap-storm (threads that map, touch and unmap in a
 * loop, every munmap a remote flush of the other threads' CPUs) run by the design and its peers
 * over thread counts, and for a design that runs as a VM also over VMs per host (the
 * overcommit that makes a flush wait for preempted vCPUs). Each is a {@code compare} of its own,
 * with its cost breakdown by part and, under overcommit, where vCPU time goes.
 */
final class DesignCost {
    static final String SCENARIO = "munmap-storm";
    /** 20 rounds a thread: the flushes of every round are the same work, so a short run ranks designs as a long one does. */
    static final List<String> SETTINGS = List.of("ops=20");
    /** Threads of the overcommit runs: one per vCPU of munmap-storm's 8-CPU machine. */
    static final int OVERCOMMIT_THREADS = 8;

    private final Comparison byThreads;
    private final Comparison byVms;

    private DesignCost(Comparison byThreads, Comparison byVms) {
        this.byThreads = byThreads;
        this.byVms = byVms;
    }

    static DesignCost run(PvBackend design, List<String> peers, List<Integer> threads, List<Integer> vms, long seed,
                          ProgressBar progress, int parallel) {
        List<String> all = new ArrayList<>(peers);
        all.add(design.name());
        Comparison t = CompareCommand.compare(SCENARIO, null, SETTINGS, seed, 1,
                List.of(axis("threads", threads), new CompareCommand.Axis("backend", all)), progress, parallel);
        Comparison v = null;
        if (!vms.isEmpty()) {
            List<String> virtualized = all.stream().filter(n -> PvBackends.byName(n).virtualized()).toList();
            List<String> sets = new ArrayList<>(SETTINGS);
            sets.add("threads=" + OVERCOMMIT_THREADS);
            v = CompareCommand.compare(SCENARIO, null, sets, seed, 1,
                    List.of(axis("vms", vms), new CompareCommand.Axis("backend", virtualized)), progress, parallel);
        }
        return new DesignCost(t, v);
    }

    private static CompareCommand.Axis axis(String key, List<Integer> values) {
        return new CompareCommand.Axis(key, values.stream().map(String::valueOf).toList());
    }

    void print(PrintWriter out) {
        out.printf("cost: %s %s by threads%n", SCENARIO, String.join(" ", SETTINGS));
        byThreads.print(out);
        if (byVms != null) {
            out.printf("%ncost under overcommit: %s %s threads=%d by VMs per host%n", SCENARIO, String.join(" ", SETTINGS),
                    OVERCOMMIT_THREADS);
            byVms.print(out);
        }
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", SCENARIO);
        m.put("settings", SETTINGS);
        m.put("by_threads", byThreads.toMap());
        m.put("by_vms", byVms == null ? null : byVms.toMap());
        return m;
    }

    String toHtml() {
        String b = byThreads.body("Cost: " + SCENARIO + " " + String.join(" ", SETTINGS) + " by threads");
        if (byVms != null) {
            b += byVms.body("Cost under overcommit: " + SCENARIO + " threads=" + OVERCOMMIT_THREADS + " by VMs per host");
        }
        return b;
    }
}
