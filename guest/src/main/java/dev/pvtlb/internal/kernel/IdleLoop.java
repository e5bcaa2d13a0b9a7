package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.LazyMode;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;

/**
 * The bottom of every CPU's stack: __schedule() picking the next task (context_switch ->
 * switch_mm_irqs_off), and do_idle() when there is none. Going idle keeps the old mm loaded in
 * lazy TLB mode (enter_lazy_tlb), or switches to init_mm at once when {@code lazy=off}; then
 * the CPU halts until an interrupt or a wake-up.
 */
public final class IdleLoop extends InternalPath {
    private final KernelCpu cpu;
    private boolean idleEntered;

    public IdleLoop(KernelCpu cpu) {
        this.cpu = cpu;
    }

    @Override
    public long step(KernelCpu c) {
        Kernel g = c.kernel();
        g.rcu().extendedQs(c.id, false);
        if (c.rq.queue.isEmpty() && g.knobs().guestBalanceIdle && GuestBalance.pullToIdle(g, c)) {
            // newidle_balance() found a task to run here instead of going idle.
            idleEntered = false;
        }
        Task next = c.rq.queue.poll();
        if (next != null) {
            idleEntered = false;
            next.state = TaskState.RUNNING;
            next.sliceStart = g.engine().now();
            c.rq.current(next);
            g.vmstat().inc(Counter.CONTEXT_SWITCHES);
            g.rcu().quiescentState(c);
            c.call(UserMode.of(next));
            c.call(new SwitchMmPath(next));
            return g.costs().contextSwitchNs;
        }
        if (!idleEntered) {
            idleEntered = true;
            g.rcu().quiescentState(c);
            long cost = g.costs().idleEnterNs;
            if (g.knobs().lazy == LazyMode.OFF) {
                c.call(new SwitchMmPath(null));
            } else {
                cost += SwitchMm.enterLazyTlb(c);
                if (g.speculation() != null && c.tlbState.isLazy) {
                    g.speculation().wentLazy(c, c.tlbState, c.localTlb());
                }
            }
            return cost;
        }
        g.rcu().extendedQs(c.id, true);
        g.rcu().quiescentState(c);
        return BLOCK;
    }

    @Override
    public TimeCategory category() {
        return cpu.rq.queue.isEmpty() ? TimeCategory.IDLE : TimeCategory.KERNEL;
    }

    @Override
    public String name() {
        return "do_idle";
    }

    /** switch_mm_irqs_off() as its own step, so its time counts as switch_mm. */
    static final class SwitchMmPath extends InternalPath {
        private final Task next;

        SwitchMmPath(Task next) {
            this.next = next;
        }

        @Override
        public long step(KernelCpu c) {
            dev.pvtlb.internal.mm.Mm mm = next == null ? c.kernel().initMm() : next.mm();
            if (pc == 0 && (!c.kernel().knobs().shouldFlushChecksLoadedMm || c.tlbState.loadedMm == mm)) {
                c.ret();
                return SwitchMm.switchMmIrqsOff(c, mm);
            }
            // When should_flush_tlb() reads loaded_mm (6.14+), the switch to a new mm is three
            // steps with IRQs off, so a flush can see the LOADED_MM_SWITCHING window
            // (CVE-2025-37964): loaded_mm = LOADED_MM_SWITCHING and the mm_cpumask bits; the
            // tlb_gen read, choose_new_asid() and the CR3 write; loaded_mm = next.
            switch (pc) {
                case 0 -> {
                    c.interrupts().disable();
                    if (c.tlbState.isLazy) {
                        OrderedStores.storeLazy(c.tlbState, false);
                    }
                    OrderedStores.storeSwitching(c.tlbState, true);
                    long cost = SwitchMm.switchCpumask(c, c.tlbState.loadedMm, mm);
                    OrderedStores.fence(c.tlbState); // cpumask_set_cpu() is a locked operation
                    pc = 1;
                    return cost;
                }
                case 1 -> {
                    pc = 2;
                    return SwitchMm.loadNewMmCr3(c, mm);
                }
                default -> {
                    c.tlbState.loadedMm = mm;
                    OrderedStores.storeSwitching(c.tlbState, false); // drains at the next barrier or when chosen
                    c.interrupts().enable();
                    c.ret();
                    return 0;
                }
            }
        }

        @Override
        public TimeCategory category() {
            return TimeCategory.SWITCH_MM;
        }

        @Override
        public String name() {
            return "switch_mm_irqs_off";
        }
    }
}
