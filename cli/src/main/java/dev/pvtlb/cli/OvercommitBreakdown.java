package dev.pvtlb.cli;

import dev.pvtlb.report.Figures;
import dev.pvtlb.report.Html;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.run.RunReport;
import java.util.List;

/**
 * The HTML section of a virtualized run that says where its vCPUs' time went under the host
 * scheduler, the figures to read before blaming a flush design for an overcommit collapse: each
 * category of vCPU time as a share of all of it (stolen is time runnable but not running, a
 * spinner's included; ipi_wait and lock_spin are spins while on the pCPU), the
 * host's scheduling events per vCPU-millisecond (pause-loop exits, the directed yields
 * kvm_vcpu_on_spin() made, preemptions, halt-poll wake-ups, migrations), the stolen time per
 * preemption (how long the host's scheduler keeps a runnable vCPU waiting), and what a remote flush
 * waited (csd_lock_wait), how long an IPI waited at its target for the handler, and how many
 * flushes KVM deferred to a preempted target instead.
 * Shown only for runs where the host preempted a vCPU or a vCPU exited.
 */
final class OvercommitBreakdown {
    private static final List<String> EVENTS = List.of("ple_exits", "directed_yields", "vcpu_preemptions", "halt_poll_wakeups", "pv_wait_halts",
            "vcpu_migrations", "vmexits", "hypercalls");

    private OvercommitBreakdown() {}

    private static String state(CostPart wait) {
        return switch (wait) {
            case WAIT_LAST_IRQS_OFF -> "running with IRQs off";
            case WAIT_LAST_DESCHEDULED -> "descheduled";
            case WAIT_LAST_HALTED -> "halted (idle)";
            case WAIT_LAST_HALTED_IRQS_OFF -> "halted with IRQs off (pv_wait)";
            default -> "running";
        };
    }

    static boolean applies(RunReport r) {
        return r.counters().getOrDefault("vcpu_preemptions", 0L) > 0 || r.counters().getOrDefault("vmexits", 0L) > 0;
    }

    /** The section for {@code reports} (one column each, headed by {@code labels}); nothing when none applies. */
    static void html(StringBuilder b, String heading, List<String> labels, RunReport[] reports) {
        if (java.util.Arrays.stream(reports).noneMatch(OvercommitBreakdown::applies)) {
            return;
        }
        b.append("<h2>KVM overcommit breakdown").append(Html.escape(heading)).append("</h2>\n<p>Where the vCPUs' time went, as a share "
                + "of all vCPU time (stolen: runnable but waiting for a pCPU, a spinning vCPU's included; ipi_wait: spinning in "
                + "csd_lock_wait(); lock_spin: spinning for a contended spinlock), and the host's scheduling events per "
                + "vCPU-millisecond.</p>\n<table><tr><th>vCPU time</th>");
        for (String l : labels) {
            b.append("<th>").append(Html.escape(l)).append("</th>");
        }
        b.append("</tr>\n");
        long[] vcpuNs = new long[reports.length];
        for (int i = 0; i < reports.length; i++) {
            vcpuNs[i] = reports[i].cpuTimeNs().values().stream().mapToLong(Long::longValue).sum();
        }
        for (String category : reports[0].cpuTimeNs().keySet()) {
            b.append("<tr><td>").append(Html.escape(category)).append("</td>");
            for (int i = 0; i < reports.length; i++) {
                long ns = reports[i].cpuTimeNs().getOrDefault(category, 0L);
                b.append("<td>").append(vcpuNs[i] == 0 ? "-" : Figures.num(100.0 * ns / vcpuNs[i]) + "%").append("</td>");
            }
            b.append("</tr>\n");
        }
        for (String event : EVENTS) {
            b.append("<tr><td>").append(Html.escape(event)).append(" per vCPU-ms</td>");
            for (int i = 0; i < reports.length; i++) {
                b.append("<td>").append(vcpuNs[i] == 0 ? "-" : Figures.num(reports[i].counters().getOrDefault(event, 0L) / (vcpuNs[i] / 1e6)))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        // stolen over preemptions: how long a vCPU the host took off its pCPU while runnable waited to run again.
        // A wake-up that waits for a busy pCPU adds stolen time without a preemption, so this is an upper bound.
        b.append("<tr><td>stolen time per vCPU preemption, ns (at most a preempted vCPU's mean wait for its pCPU: a woken vCPU's wait "
                + "adds to it)</td>");
        for (RunReport r : reports) {
            long preemptions = r.counters().getOrDefault("vcpu_preemptions", 0L);
            b.append("<td>").append(preemptions == 0 ? "-" : Figures.num((double) r.cpuTimeNs().getOrDefault("stolen", 0L) / preemptions))
                    .append("</td>");
        }
        b.append("</tr>\n<tr><td>csd_lock_wait per remote flush, ns</td>");
        for (RunReport r : reports) {
            long flushes = r.counters().getOrDefault("nr_tlb_remote_flush", 0L);
            b.append("<td>").append(flushes == 0 ? "-" : Figures.num((double) r.cpuTimeNs().getOrDefault("ipi_wait", 0L) / flushes))
                    .append("</td>");
        }
        b.append("</tr>\n<tr><td>a call-function IPI's wait at its target until the handler runs (vCPU descheduled, IRQs off), ns</td>");
        for (RunReport r : reports) {
            // call-function IPIs: a reschedule IPI (resched_ipis) has no handler that waits
            long received = r.counters().getOrDefault("ipis_received", 0L) - r.counters().getOrDefault("resched_ipis", 0L);
            b.append("<td>").append(received == 0 ? "-" : Figures.num((double) r.costNs().getOrDefault("ipi_delivery", 0L) / received))
                    .append("</td>");
        }
        // What the slow flushes waited on: each call's wait filed under the state of the target that answered last.
        long[] waited = new long[reports.length];
        for (int i = 0; i < reports.length; i++) {
            for (CostPart w : CostPart.WAITS_ON_LAST_TARGET) {
                waited[i] += reports[i].costNs().getOrDefault(w.key, 0L);
            }
        }
        for (CostPart part : CostPart.WAITS_ON_LAST_TARGET) {
            b.append("</tr>\n<tr><td>share of the calls' waits (call to last csd_unlock) whose last target was ")
                    .append(Html.escape(state(part))).append(" at the send</td>");
            for (int i = 0; i < reports.length; i++) {
                b.append("<td>").append(waited[i] == 0 ? "-" : Figures.num(100.0 * reports[i].costNs().getOrDefault(part.key, 0L) / waited[i])
                        + "%").append("</td>");
            }
        }
        b.append("</tr>\n<tr><td>flushes deferred to a preempted target, per remote flush</td>");
        for (RunReport r : reports) {
            long flushes = r.counters().getOrDefault("nr_tlb_remote_flush", 0L);
            b.append("<td>").append(flushes == 0 ? "-" : Figures.num((double) r.counters().getOrDefault("deferred_flushes", 0L) / flushes))
                    .append("</td>");
        }
        b.append("</tr>\n</table>\n");
    }
}
