package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.TimeCategory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of the netperf TCP_RR run of Rik van Riel, "x86,tlb,mm: make lazy TLB mode even
 * lazier", LKML June 2018: request/response pairs whose CPUs "are simply switching back and forth
 * between netperf and the idle task". Each of {@code threads} pairs is a netperf client thread and
 * a netserver thread on their own CPUs; per transaction each side copies a message in (recvmsg) and
 * out (sendmsg), touches its buffer, and blocks until the peer's message arrives ({@code wait_us},
 * the peer's turn and the wire), during which its CPU goes idle. Going idle and coming back runs
 * enter_lazy_tlb or switch_mm_irqs_off to init_mm and back (with {@code lazy=off}), whose
 * mm_cpumask atomics on the shared netserver mm are what the thread measured. Metrics:
 * {@code transactions_per_s} and {@code switch_mm_share}, the fraction of all CPU time spent in
 * switch_mm_irqs_off. The two sides run open loop (each side's wait stands for the other's turn),
 * so a transaction's time is its side's own kernel work plus the wait. Default machine: 48 CPUs
 * (2 x 12 x 2).
 */
public final class NetperfRr implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "netperf-rr";
    }

    @Override
    public String description() {
        return "request/response pairs: CPUs switch between the benchmark task and idle all the time";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "24");
        p.put("ops", "100");
        p.put("wait_us", "20");
        p.put("buffer_pages", "4");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(new Topology(2, 12, 2));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int pairs = params.integer("threads", 1, 65536);
        int ops = params.integer("ops", 1, 100_000_000);
        int waitUs = params.integer("wait_us", 0, 1_000_000);
        int bufPages = params.integer("buffer_pages", 1, 4096);
        Mm server = guest.newMm();
        Mm client = guest.newMm();
        long bufLen = (long) bufPages * pairs * PhysMem.PAGE_SIZE;
        long sBase = server.getUnmappedArea(bufLen);
        server.insertVma(sBase, sBase + bufLen, true, false);
        long cBase = client.getUnmappedArea(bufLen);
        client.insertVma(cBase, cBase + bufLen, true, false);
        Finish finish = new Finish();
        long[] transactions = new long[1];
        int cpus = guest.cpus().length;
        for (int i = 0; i < pairs; i++) {
            long off = (long) i * bufPages * PhysMem.PAGE_SIZE;
            guest.spawn("netperf/" + i, client, (2 * i) % cpus,
                    finish.track(new Side(cBase + off, bufPages, ops, waitUs * 1000L, transactions)));
            guest.spawn("netserver/" + i, server, (2 * i + 1) % cpus,
                    finish.track(new Side(sBase + off, bufPages, ops, waitUs * 1000L, null)));
        }
        return () -> {
            long total = 0;
            for (TimeCategory c : TimeCategory.values()) {
                total += guest.cpuTime().total(c);
            }
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("transactions_per_s", new Metric(transactions[0] / finish.elapsedS(), "1/s", true));
            m.put("switch_mm_share", new Metric(total == 0 ? 0 : (double) guest.cpuTime().total(TimeCategory.SWITCH_MM) / total,
                    "fraction", false));
            return m;
        };
    }

    /** One side of a pair: recvmsg, touch the buffer, sendmsg, block for the peer; {@code ops} times. */
    private static final class Side implements Program {
        private final long buf;
        private final int pages;
        private final long waitNs;
        private final long[] transactions;
        private int left;
        private int phase;

        Side(long buf, int pages, int ops, long waitNs, long[] transactions) {
            this.buf = buf;
            this.pages = pages;
            this.left = ops;
            this.waitNs = waitNs;
            this.transactions = transactions;
        }

        @Override
        public Op next(Task task) {
            switch (phase) {
                case 0 -> {
                    if (left == 0) {
                        return null;
                    }
                    phase = 1;
                    // tcp_recvmsg() copying the request in.
                    return new Syscall(t -> new KernelWork("tcp_recvmsg", c -> c.syscallNs), null);
                }
                case 1 -> {
                    phase = 2;
                    return new Touch(buf, pages, pages, 0.5, true, null);
                }
                case 2 -> {
                    phase = 3;
                    // tcp_sendmsg() of the response.
                    return new Syscall(t -> new KernelWork("tcp_sendmsg", c -> c.syscallNs), null);
                }
                default -> {
                    phase = 0;
                    left--;
                    if (transactions != null) {
                        transactions[0]++;
                    }
                    // Blocked in recvmsg until the peer's message arrives: the CPU goes idle.
                    return new Sleep(waitNs);
                }
            }
        }
    }
}
