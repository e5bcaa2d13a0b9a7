package samples;

import dev.pvtlb.Guest;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.stats.TraceEvent;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Sample 3: subscribe to the guest's tracepoints. Runner.run() boots and closes its guests
 * itself; to watch one, boot it yourself with Scenario.boot (the workload's tasks are created,
 * nothing has run yet), subscribe, and run it to the end.
 */
public final class Sample03Tracepoints {
    public static void main(String[] args) {
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "4").set("threads", "4").set("ops", "5").seed(3);

        // Repetition 0's guest, with the workload's processes and tasks created (as Runner
        // does for each repetition); try-with-resources: a guest holds its memory until closed.
        try (Guest g = s.boot(0)) {
            Map<TlbFlushReason, Integer> byReason = new EnumMap<>(TlbFlushReason.class);
            List<TraceEvent> first = new ArrayList<>();
            // A subscriber sees every tracepoint hit, in simulated-time order, as the kernel's
            // tlb:tlb_flush tracepoint would report it (reason, pages; -1 pages = flush all).
            g.trace().subscribe(e -> {
                if (e.reason() != null) {
                    byReason.merge(e.reason(), 1, Integer::sum);
                }
                if (first.size() < 8) {
                    first.add(e);
                }
            });

            // The guest runs until every task has exited.
            g.run(Long.MAX_VALUE);

            System.out.println("first events (time ns, cpu, tracepoint):");
            first.forEach(e -> System.out.println("  " + e));
            System.out.println("tlb:tlb_flush by reason:");
            byReason.forEach((reason, n) -> System.out.printf("  %-26s %6d%n", reason, n));
            // The vmstat counters agree with the tracepoints: one TLB_REMOTE_SEND_IPI per remote flush.
            System.out.println("nr_tlb_remote_flush " + g.vmstat().get(Counter.NR_TLB_REMOTE_FLUSH));
        }
    }
}
