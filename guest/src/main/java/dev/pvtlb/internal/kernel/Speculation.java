package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.smp.Cpu;
import java.util.function.IntSupplier;

/**
 * Speculative page walks by idle CPUs in lazy TLB mode. Such a CPU keeps the old mm's CR3, so its
 * hardware may walk that mm's page tables at any moment (prefetch, speculation), filling its TLB
 * and paging-structure caches; this is why freed page tables must reach lazy CPUs too (Rik van
 * Riel, "x86,tlb,mm: make lazy TLB mode even lazier", LKML June 2018). While a CPU is idle and
 * lazy, every model.speculation.tick.ns a choice point (SPECULATIVE_WALK) decides whether it walks the
 * address it last used, and once more when it returns from an interrupt handler to its idle loop
 * ({@link #leavingInterrupt}). Off unless the scenario asks for it (GuestConfig.speculativeWalks).
 */
public final class Speculation {
    private final Engine engine;
    private final Costs costs;
    /** How many tasks are alive: with none the run is over, and no CPU walks for it. */
    private final IntSupplier liveTasks;
    /** Each CPU's tick as one event object, scheduled again and again (no garbage per tick). */
    private final dev.pvtlb.internal.sim.Event[] ticks;

    Speculation(Engine engine, Costs costs, int nrCpus, IntSupplier liveTasks) {
        this.engine = engine;
        this.costs = costs;
        this.liveTasks = liveTasks;
        this.ticks = new dev.pvtlb.internal.sim.Event[nrCpus];
    }

    /** enter_lazy_tlb() on an idle CPU, {@code cpu} with its tlb_state and its TLB: speculation may start. */
    public void wentLazy(Cpu cpu, TlbState state, LocalTlb tlb) {
        schedule(cpu, state, tlb);
    }

    private void schedule(Cpu cpu, TlbState state, LocalTlb tlb) {
        dev.pvtlb.internal.sim.Event t = ticks[cpu.id()];
        if (t == null) {
            t = ticks[cpu.id()] = e -> tick(cpu, state, tlb);
        }
        engine.at(engine.now() + costs.speculationTickNs, t);
    }

    /**
     * A lazy CPU leaves an interrupt handler (generic_smp_call_function_interrupt() after, say,
     * tlb_remove_table_smp_sync()) for its idle loop: it executes on the old CR3 until it halts
     * again, and its hardware may walk then, not only at a tick. Without this moment a walk in
     * that window, shorter than a tick, is never tried: the window in which tlb_remove_table_one()
     * frees a table this CPU still caches, as soon as the CPU has answered the sync IPI, while
     * the flush that will reach it is still to come.
     */
    public void leavingInterrupt(Cpu cpu, TlbState state, LocalTlb tlb) {
        maybeWalk(cpu, state, tlb);
    }

    private void tick(Cpu cpu, TlbState state, LocalTlb tlb) {
        if (maybeWalk(cpu, state, tlb)) {
            schedule(cpu, state, tlb);
        }
    }

    /** Whether {@code cpu} is still idle and lazy on a user mm; if so, it may walk now (a choice). */
    private boolean maybeWalk(Cpu cpu, TlbState state, LocalTlb tlb) {
        if (!state.isLazy || state.loadedMm.isInitMm() || liveTasks.getAsInt() == 0) {
            return false;
        }
        // A vCPU the host is not running (halted, preempted) executes nothing, so it walks
        // nothing now; but it is still lazy on the old CR3, and once it runs again (a timer
        // interrupt ends its halt) its hardware may walk that mm as before. So the ticks go
        // on while it is descheduled.
        long va = tlb.lastUserVa();
        if (cpu.vcpuRunning() && va >= 0 && engine.choose(ChoicePoint.SPECULATIVE_WALK, 2) == 1) {
            tlb.speculativeWalk(va);
        }
        return true;
    }
}
