package dev.pvtlb.validation.calibration;

import dev.pvtlb.profile.Profile;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.report.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A profile file built from {@link HostMeasurements}. It extends a built-in profile and sets
 * only keys whose meaning matches a measurement, either measured directly or derived by a
 * formula written out, with its numbers, in the comment above the key. What was measured but
 * fits no single key, and every key left at the base's value, is listed in comments too.
 * Figures are medians: on a shared or virtualized host a few preempted rounds move a mean by
 * several times. The text depends on the measurements alone (no date or path), so the same
 * figures give the same file.
 */
public final class CalibratedProfile {
    static final String NAME = "host-calibrated";

    /** Why the munmap baseline is free of remote flushes (see BusyNeighbours). */
    private static final String BASELINE_CAVEAT =
            "The baseline ran with every other CPU busy in another process, so no CPU was in this mm's cpumask.";

    private final HostMeasurements m;
    private final Profile base;
    private final Map<String, Double> values = new LinkedHashMap<>();
    private final StringBuilder keyLines = new StringBuilder();
    private HostPrimitives primitives;

    CalibratedProfile(HostMeasurements m, Profile base) {
        this(m, null, base);
    }

    /** With {@code p}, the primitives measured alone, mapped after the syscall and before the shootdown. */
    CalibratedProfile(HostMeasurements m, HostPrimitives p, Profile base) {
        this.m = m;
        this.base = base;
        mapSyscall();
        if (p != null) {
            new PrimitiveMapping(p, m, base, values, this::key, this::note).map();
        }
        this.primitives = p;
        mapRemoteShootdown();
    }

    /**
     * The munmap pair the shootdown is solved from: with primitives, both of
     * {@link HostPrimitives#SMALL_PAGES} pages, above the flush ceiling, where a lone munmap
     * flushes once as one with remote CPUs does (below it, a lone munmap flushes page by page,
     * which on a PVM guest is a hypercall a page, and the pair would measure that instead).
     */
    private Metric shootdownRemote() {
        return primitives != null ? primitives.munmapRemote() : m.munmapRemote();
    }

    private Metric shootdownAlone() {
        return primitives != null ? primitives.munmapSmall() : m.munmapAlone();
    }

    private int shootdownPages() {
        return primitives != null ? HostPrimitives.SMALL_PAGES : m.pages();
    }

    /** The keys this profile sets, in file order, with their values. */
    public Map<String, Double> values() {
        return Collections.unmodifiableMap(values);
    }

    public String yaml() {
        StringBuilder y = new StringBuilder();
        y.append("# Calibration profile measured on a real host by `pvtlb calibrate`. It sets only keys whose\n")
                .append("# meaning matches a measurement; every other key keeps ").append(base.name()).append("'s value.\n")
                .append("# Host: ").append(m.cpuModel()).append(", ").append(m.logicalCpus()).append(" logical CPUs, hypervisor ")
                .append(m.hypervisor()).append(", remote TLB flush by ").append(m.remoteFlush()).append(".\n")
                .append("# How: native calls through ").append(m.backend()).append(", timed on a thread pinned to cpu")
                .append(m.initiatorCpu()).append(", and ").append(m.threads()).append(" remote thread(s)\n")
                .append("# pinned round robin to the --cpus after it; mappings of ").append(m.pages())
                .append(" pages. Figures are medians.\n\n")
                .append("name: ").append(NAME).append('\n')
                .append("extends: ").append(base.name()).append('\n')
                .append(keyLines)
                .append("\n# Measured, mapped to no key: each is a sum of several model costs (a munmap alone, say, is\n")
                .append("# syscall.ns + vma.op.ns + pte.op.ns per page twice + the local flush) that one figure cannot split.\n")
                .append("# ").append(figure("  munmap, no remote thread, other CPUs busy", m.munmapAlone())).append('\n')
                .append("# ").append(figure("  mprotect, remote threads running", m.mprotect())).append('\n')
                .append("# ").append(figure("  touch + madvise(DONTNEED), remote readers", m.madviseTouch())).append('\n');
        List<String> left = Profile.KEYS.stream().filter(k -> !values.containsKey(k)).toList();
        y.append("\n# Left at ").append(base.name()).append("'s values (not measured here):\n");
        wrap(y, left);
        return y.toString();
    }

    /** getpid() enters and leaves the kernel and does nothing else: that is what syscall.ns charges. */
    private void mapSyscall() {
        Metric g = m.getpid();
        key("syscall.ns", g.median(), List.of(
                "syscall.ns, measured: getpid(), a system call that only enters and leaves the kernel, per call",
                "over batches of 1000 calls; includes the " + m.backend() + " downcall's own few ns.",
                figure("  getpid", g)));
    }

    /**
     * The time remote CPUs add to a munmap is their shootdown. Which key that is depends on
     * how this kernel reaches them: one flush hypercall, or IPIs.
     */
    private void mapRemoteShootdown() {
        int n = m.remoteCpus().size();
        if (n == 0) {
            note("Remote shootdown: not measured. No remote thread ran on a CPU other than the initiator's (cpu"
                    + m.initiatorCpu() + "); --cpus needs two or more CPUs.");
            return;
        }
        double diff = shootdownRemote().median() - shootdownAlone().median();
        List<String> figures = List.of(
                figure("    munmap of " + shootdownPages() + " pages, CPU(s) " + cpuList(m.remoteCpus()) + " running the mm",
                        shootdownRemote()),
                figure("  - munmap of " + shootdownPages() + " pages, alone, other CPUs busy", shootdownAlone()));
        if (diff <= 0) {
            List<String> why = new ArrayList<>();
            why.add("Remote shootdown: not mapped. munmap with remote CPUs was not slower than without:");
            why.addAll(figures);
            why.add("so noise hides the shootdown. Rerun on a quieter machine or with more --iterations.");
            note(why.toArray(String[]::new));
            return;
        }
        String method = m.remoteFlush();
        if (method.startsWith("hypercall")) {
            List<String> why = new ArrayList<>();
            why.add("hypercall.ns, derived: this kernel flushes remote TLBs with one " + method);
            why.add("per flush, whatever the number of targets, so what remote CPUs add to a munmap is that");
            why.add("hypercall's round trip with the host's flush work, which is what hypercall.ns charges:");
            why.addAll(figures);
            why.add("  = " + ns(diff) + " ns");
            why.add(BASELINE_CAVEAT);
            why.add("Only a hypervisor backend charges hypercall.ns; the native backend sends IPIs instead.");
            key("hypercall.ns", diff, why);
        } else if (method.equals("native IPI") || method.equals("kvm pv tlb flush")) {
            if (primitives != null && m.mprotect().median() > primitives.mprotect().median()) {
                // The round trip from the mprotect pair; the munmap pair is the cross-check.
                double viaMprotect = m.mprotect().median() - primitives.mprotect().median();
                List<String> pair = List.of(
                        figure("    mprotect of " + m.pages() + " pages, CPU(s) " + cpuList(m.remoteCpus()) + " running the mm",
                                m.mprotect()),
                        figure("  - mprotect of " + m.pages() + " pages, alone, other CPUs busy", primitives.mprotect()));
                mapIpiLatency(n, viaMprotect, pair);
                List<String> check = new ArrayList<>();
                check.add("Cross-check, not mapped: the same solved from the munmap pair (a difference of two larger");
                check.add("and noisier medians) gives " + ns(latencyOf(n, diff)) + " ns of IPI latency:");
                check.addAll(figures);
                note(check.toArray(String[]::new));
            } else {
                mapIpiLatency(n, diff, figures);
            }
        } else {
            List<String> why = new ArrayList<>();
            why.add("Remote shootdown: not mapped. This kernel flushes remote TLBs by " + method + ", so which key");
            why.add("the time that remote CPUs add to a munmap belongs to is not known:");
            why.addAll(figures);
            why.add("  = " + ns(diff) + " ns");
            note(why.toArray(String[]::new));
        }
    }

    /**
     * In the model, with n remote CPUs running the mm and native.concurrentFlush on (the
     * default), the initiator sends n IPIs, flushes locally while they travel, and waits until
     * the last target has taken the interrupt, run the csd and flushed. The local and remote
     * INVLPGs of a range are equally long, so a call that flushes once grows by
     * n*ipi.send.ns + latency + irq.entry_exit.ns/2 + csd.run.ns. Solving for latency gives
     * the one IPI key the measurement can pin down. With primitives the pair is two mprotects of
     * the calibration's mapping (each call, read-only and back, flushes once): a 4 us call that
     * grows to about 16 us with a remote CPU, where the two 64-page munmaps are 20 and 46 us with
     * spreads of their own. On a 2-vCPU KVM guest (2026-12-02) five calibrations gave 11.4 .. 12.5
     * us from the mprotect pair and 9.6 .. 21.3 us from the munmap pair.
     */
    private void mapIpiLatency(int n, double diff, List<String> figures) {
        double send = base.get("ipi.send.ns");
        double entry = base.get("irq.entry_exit.ns") / 2;
        double csd = base.get("csd.run.ns");
        double latency = latencyOf(n, diff);
        List<String> why = new ArrayList<>();
        why.add("ipi.latency.min.ns and ipi.latency.max.ns, derived: with n remote CPUs running the mm, the");
        why.add("model's call grows by n*ipi.send.ns + latency + irq.entry_exit.ns/2 + csd.run.ns (the local");
        why.add("and remote INVLPGs of the range overlap: native.concurrentFlush=true), other keys as in " + base.name() + ":");
        why.addAll(figures);
        why.add("  - (n*ipi.send.ns + irq.entry_exit.ns/2 + csd.run.ns) = -(" + n + "*" + ns(send) + " + " + ns(entry)
                + " + " + ns(csd) + ") ns");
        why.add("  = " + ns(latency) + " ns of IPI latency");
        if (latency <= 0) {
            why.set(0, "Remote shootdown: not mapped. Solving for ipi.latency leaves nothing:");
            note(why.toArray(String[]::new));
            return;
        }
        if (m.remoteFlush().startsWith("kvm")) {
            why.add("Under KVM this latency includes the VM exits of sending and receiving the IPI.");
        }
        why.add(BASELINE_CAVEAT);
        why.add("A difference of medians gives no spread, so both ends of the range get it.");
        key("ipi.latency.min.ns", latency, why);
        key("ipi.latency.max.ns", latency, List.of());
    }

    /** What is left of {@code diff} for the IPI latency: diff - (n*ipi.send.ns + irq.entry_exit.ns/2 + csd.run.ns). */
    private double latencyOf(int n, double diff) {
        return diff - n * base.get("ipi.send.ns") - base.get("irq.entry_exit.ns") / 2 - base.get("csd.run.ns");
    }

    void key(String key, double value, List<String> comment) {
        double rounded = Math.round(value * 10) / 10.0;
        values.put(key, rounded);
        if (!comment.isEmpty()) {
            keyLines.append('\n');
            comment.forEach(line -> keyLines.append("# ").append(line).append('\n'));
        }
        keyLines.append(key).append(": ").append(Json.number(rounded)).append('\n');
    }

    void note(String... lines) {
        keyLines.append('\n');
        for (String line : lines) {
            keyLines.append("# ").append(line).append('\n');
        }
    }

    /** A labelled figure: its median in a column, then mean, stdev and sample count. */
    static String figure(String label, Metric x) {
        return String.format(java.util.Locale.ROOT, "%-46s %10s ns  (mean %s, stdev %s, %d samples)", label, ns(x.median()),
                ns(x.mean()), ns(x.stdev()), x.samples());
    }

    static String ns(double d) {
        return Json.number(Math.round(d * 10) / 10.0);
    }

    private static String cpuList(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static void wrap(StringBuilder y, List<String> words) {
        StringBuilder line = new StringBuilder("#  ");
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i) + (i + 1 < words.size() ? "," : "");
            if (line.length() + 1 + w.length() > 96) {
                y.append(line).append('\n');
                line = new StringBuilder("#  ");
            }
            line.append(' ').append(w);
        }
        y.append(line).append('\n');
    }
}
