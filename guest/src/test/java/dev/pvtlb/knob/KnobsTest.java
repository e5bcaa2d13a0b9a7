package dev.pvtlb.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.model.ModelException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnobsTest {
    @Test
    void defaultsAreCurrentLinux() {
        Knobs k = Knobs.defaults(KnobRegistry.common());
        // x86.x2apic=physical and x86.mmCpumask=clear-on-switch are what the model did before these knobs
        // existed. Linux's x2APIC mode depends on the firmware (cluster unless the FADT or x2apic_phys asks
        // for physical); after 6.12 Linux updates mm_cpumask lazily. pageLocks=off and zeroPage=off: the
        // model before the knobs existed. mmapLock=vma: per-VMA locks, mainline since 6.4; sched.balance=idle:
        // every release moves threads nobody pinned; host.scheduler=eevdf: the fair scheduler since 6.6.
        // host.balance=none: the model before the knob existed (Linux always moves threads to idle CPUs). kernel=none: no release's preset.
        // pvqspinlock.waitEarly=halted: mainline's pv_wait_early() since the revert 89340d0935c9 (5.4).
        // virtSpinLock=tas: virt_spin_lock() on any hypervisor unless nopvspin or KVM_HINTS_REALTIME.
        // rwsem.readerSpin=false: readers sleep on a writer, as before 5.3 and since 617f3ef95177 (5.12).
        // lruAddDrain=false: an unmap no longer drains the LRU-add vector first, since Rik van Riel's 2024 patch (6.14).
        // pagevec=31: PAGEVEC_SIZE since 9cecde80aae0 (6.9).
        assertEquals(Map.ofEntries(Map.entry("lazy", "skip"), Map.entry("native.concurrentFlush", "true"), Map.entry("rwsem.readerSpin", "false"),
                Map.entry("native.smtSiblingDedup", "false"), Map.entry("nestedFlush", "flush"), Map.entry("tableFree", "rcu"),
                Map.entry("shouldFlushTlb", "lazy"), Map.entry("mremapFlush", "under-ptl"), Map.entry("tableBatch", "ok"),
                Map.entry("memoryModel", "sc"), Map.entry("switchMmBarrier", "smp_mb"), Map.entry("x86.x2apic", "physical"),
                Map.entry("smt.flushDropsSibling", "true"), Map.entry("rcu", "sched"), Map.entry("sched.balance", "idle"), Map.entry("inject", "none"),
                Map.entry("x86.mmCpumask", "clear-on-switch"), Map.entry("mmapLock", "vma"), Map.entry("host.scheduler", "eevdf"),
                Map.entry("host.balance", "none"), Map.entry("pageLocks", "off"), Map.entry("zeroPage", "off"), Map.entry("kernel", "none"),
                Map.entry("pvqspinlock.waitEarly", "halted"), Map.entry("virtSpinLock", "tas"), Map.entry("lruAddDrain", "false"),
                Map.entry("pagevec", "31")),
                k.values());
    }

    @Test
    void unknownKnobsAndValuesAreRefusedWithTheAlternatives() {
        ModelException a = assertThrows(ModelException.class, () -> Knobs.of(KnobRegistry.common(), Map.of("lazzy", "off")));
        assertEquals("unknown knob 'lazzy' (known: host.balance, host.scheduler, inject, kernel, lazy, lruAddDrain, memoryModel, mmapLock, mremapFlush, native.concurrentFlush, native.smtSiblingDedup, nestedFlush, pageLocks, pagevec, pvqspinlock.waitEarly, rcu, rwsem.readerSpin, sched.balance, shouldFlushTlb, smt.flushDropsSibling, switchMmBarrier, tableBatch, tableFree, virtSpinLock, x86.mmCpumask, x86.x2apic, zeroPage)", a.getMessage());
        ModelException b = assertThrows(ModelException.class,
                () -> Knobs.of(KnobRegistry.common(), Map.of("native.concurrentFlush", "maybe")));
        assertEquals("knob native.concurrentFlush cannot be 'maybe' (allowed: true|false)", b.getMessage());
    }
}
