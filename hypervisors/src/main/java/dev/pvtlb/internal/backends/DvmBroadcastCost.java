package dev.pvtlb.internal.backends;

import dev.pvtlb.profile.Profile;

/**
 * What one arm64 broadcast invalidation costs as a function of the inner-shareable domain's size:
 * {@code ops} TLBI ...IS instructions closed by one DSB ISH, as __flush_tlb_range() and
 * flush_tlb_mm() issue them (arch/arm64/include/asm/tlbflush.h), in a domain of {@code cpus} PEs.
 *
 * <p>Each TLBI ...IS is a DVM operation and the DSB ISH after them a DVM Sync (AMBA 5 CHI
 * Architecture Specification, IHI 0050F.b, chapter B8 "DVM Operations"):
 * <ul>
 * <li>B8.2.1 step 4: the interconnect's DVM node (the Miscellaneous Node) broadcasts every DVM
 * operation to each other PE of the domain as a SnpDVMOp of two snoop packets. One node sends
 * them all, one after another on its snoop channel: (ops + 1) x (cpus - 1) snoops, each
 * {@code tlbi.dvm.snoop.ns}. This is the part of the initiator's wait that grows with the domain.
 * <li>Every other PE handles every SnpDVMOp, whether or not it ever ran the mm: it looks the
 * address or ASID up in its TLB and walk caches ({@code tlbi.bystander.ns} per operation; Takao
 * Indoh's cover letter, lore.kernel.org/r/20190617143255.10462-1-indou.takao@jp.fujitsu.com:
 * "all CPUs within the same inner shareable domain check if there are TLB entries which have this
 * ASID, this causes performance noise").
 * <li>B8.2.2 step 5: a PE answers the Sync only once "all DVM-related operations have completed at
 * the Request Node structures", so each PE also pays for completing them ({@code
 * tlbi.bystander.sync.ns}, once per DSB), and the node sends the initiator its Comp only after the
 * last PE answered: the initiator's DSB waits for the slowest PE.
 * </ul>
 * The initiator's wait is the Sync's round trip ({@code tlbi.sync.ns}), plus whichever ends later
 * of the node's fan-out and one PE's handling of the operations (they overlap), plus the last PE's
 * completion of the Sync. The model's inner-shareable domain is every CPU of the guest (Linux
 * runs all CPUs of an arm64 system in one inner-shareable domain).
 */
record DvmBroadcastCost(long issueNs, long syncRoundTripNs, long snoopNs, long bystanderOpNs, long bystanderSyncNs) {
    static DvmBroadcastCost of(Profile p) {
        return new DvmBroadcastCost(p.ns("tlbi.ns"), p.ns("tlbi.sync.ns"), p.ns("tlbi.dvm.snoop.ns"), p.ns("tlbi.bystander.ns"),
                p.ns("tlbi.bystander.sync.ns"));
    }

    /** What {@code ops} broadcast TLBIs and their DSB ISH cost each other PE of the domain. */
    long bystanderNs(long ops) {
        return ops * bystanderOpNs + bystanderSyncNs;
    }

    /** The initiator's cost: issuing {@code ops} TLBIs, then the DSB ISH in a domain of {@code cpus} PEs. */
    long initiatorNs(long ops, int cpus) {
        return ops * issueNs + dsbWaitNs(ops, cpus);
    }

    /** The DSB ISH: the Sync's round trip and, with other PEs in the domain, the slowest one's answer. */
    long dsbWaitNs(long ops, int cpus) {
        long others = Math.max(0, cpus - 1);
        if (others == 0) {
            return syncRoundTripNs;
        }
        long fanOut = (ops + 1) * others * snoopNs;
        return syncRoundTripNs + Math.max(fanOut, ops * bystanderOpNs) + bystanderSyncNs;
    }
}
