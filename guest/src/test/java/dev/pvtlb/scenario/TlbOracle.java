package dev.pvtlb.scenario;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.TlbState;
import java.util.ArrayList;
import java.util.List;

/**
 * Test oracle: when a flush returns to its initiator, scan every CPU's TLB. A CPU whose
 * cpu_tlbstate says it is up to date with the flush's generation for the mm must hold no
 * translation in the flushed range that disagrees with the page tables, and neither may a CPU
 * that is running the mm right now. (A lazy or switched-away CPU whose slot is behind is allowed
 * stale entries: it flushes before using the mm again.)
 */
final class TlbOracle implements FlushChecker {
    private final Kernel guest;
    final List<String> violations = new ArrayList<>();
    long checks;

    TlbOracle(Kernel guest) {
        this.guest = guest;
    }

    @Override
    public void flushReturned(dev.pvtlb.smp.Cpu initiator, FlushTlbInfo info) {
        checks++;
        for (KernelCpu c : guest.cpus()) {
            for (int slot = 0; slot < TlbState.NR_DYN_ASIDS; slot++) {
                boolean runsIt = c.loadedMm() == info.mm && !c.tlbState.isLazy && c.tlbState.loadedMmAsid == slot;
                if (c.tlbState.ctxId[slot] != info.mm.ctxId() || (c.tlbState.tlbGen[slot] < info.newTlbGen && !runsIt)) {
                    continue;
                }
                int pcid = c.localTlb().pcid(slot);
                c.localTlb().tlb().forEach((p, vpn, pte, filledAt) -> {
                    long va = vpn << 12;
                    if (p != pcid || (!info.isFullFlush() && (va < info.start || va >= info.end))) {
                        return;
                    }
                    long now = guest.pageTables().get(((dev.pvtlb.internal.mm.Mm) info.mm).pgd(), va);
                    boolean stale = !Pte.present(now) || Pte.pfnOf(now) != Pte.pfnOf(pte)
                            || (Pte.writable(pte) && !Pte.writable(now));
                    if (stale) {
                        violations.add(String.format("cpu%d holds 0x%x -> %s after flush %s returned on cpu%d (page table: %s)",
                                c.id, va, Pte.describe(pte), info, initiator.id(), Pte.describe(now)));
                    }
                });
            }
        }
    }
}
