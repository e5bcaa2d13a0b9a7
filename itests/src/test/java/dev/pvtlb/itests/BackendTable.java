package dev.pvtlb.itests;

import static dev.pvtlb.itests.CounterRule.equal;
import static dev.pvtlb.itests.CounterRule.positive;
import static dev.pvtlb.itests.CounterRule.zero;

import java.util.List;

/**
 * The backends the container tests run, one row each, and what each one's report must show.
 * {@link BackendContainerIT} runs every row. Adding a backend is one row, for example:
 *
 * <pre>{@code
 * new Backend("xen-pv", "munmap-storm", 3, positive("hypercalls"), zero("ipis_sent")),
 * new Backend("arm64", "munmap-storm", 3, zero("ipis_sent"), zero("ipis_received"), zero("hypercalls")),
 * }</pre>
 */
final class BackendTable {
    static final List<Backend> ALL = List.of(
            // Bare-metal x86: every remote flush is an IPI that a target's flush_tlb_func
            // answers, and nothing goes through a hypervisor.
            new Backend("native", "munmap-storm", 3,
                    positive("nr_tlb_remote_flush"), positive("nr_tlb_remote_flush_received"),
                    positive("ipis_sent"), equal("ipis_received", "ipis_sent"),
                    zero("hypercalls"), zero("vmexits")),
            // Xen PV: one multicall per flush; the hypervisor flushes the vCPUs, no guest interrupt.
            new Backend("xen-pv", "munmap-storm", 3,
                    positive("hypercalls"), positive("hypervisor_flushes"),
                    zero("nr_tlb_remote_flush_received"), equal("ipis_received", "ipis_sent")),
            // Hyper-V: flush hypercalls with a processor mask (8 vCPUs: no fallback to native).
            new Backend("hyperv", "munmap-storm", 3,
                    positive("hypercalls"), positive("hypervisor_flushes"), zero("native_fallbacks"),
                    zero("nr_tlb_remote_flush_received"), equal("ipis_received", "ipis_sent")),
            // KVM without overcommit: no vCPU is preempted, so every target gets an IPI, sent with
            // the PV send-IPI hypercall; no flush is deferred to steal time.
            new Backend("kvm", "munmap-storm", 3,
                    positive("ipis_sent"), equal("ipis_received", "ipis_sent"), positive("hypercalls"),
                    positive("nr_tlb_remote_flush_received"), zero("deferred_flushes")),
            // PVM: one PVM_HC_FLUSH_TLB_MULTI per flush; the host kicks running targets and flushes
            // the rest at their next entry, no guest interrupt.
            new Backend("pvm", "munmap-storm", 3,
                    positive("hypercalls"), positive("hypervisor_flushes"),
                    zero("nr_tlb_remote_flush_received"), equal("ipis_received", "ipis_sent")),
            // arm64: TLBI ...IS broadcast, no IPIs, no hypervisor.
            new Backend("arm64", "munmap-storm", 3,
                    zero("ipis_sent"), zero("ipis_received"), zero("hypercalls"), positive("broadcast_flushes")),
            // AMD INVLPGB: broadcast by global ASID, no IPIs, no remote handler.
            new Backend("invlpgb", "munmap-storm", 3,
                    zero("ipis_sent"), zero("nr_tlb_remote_flush_received"), zero("hypercalls"),
                    positive("broadcast_flushes")),
            // Intel RAR: remote action requests, no IPIs, no handler.
            new Backend("rar", "munmap-storm", 3,
                    zero("ipis_sent"), zero("nr_tlb_remote_flush_received"), zero("hypercalls"),
                    positive("remote_action_requests")));

    private BackendTable() {
    }
}
