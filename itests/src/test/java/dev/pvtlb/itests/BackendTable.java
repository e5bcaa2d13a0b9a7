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
                    zero("hypercalls"), zero("vmexits")));

    private BackendTable() {
    }
}
