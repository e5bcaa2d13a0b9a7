package dev.pvtlb.pvops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.model.ModelException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code kernel} preset on bare metal (native): each release's guest designs, and explicit knobs winning. */
class KernelReleaseTest {
    /** The knob values a native guest boots with under these settings. */
    private static Map<String, String> booted(String... kv) {
        GuestConfig.Builder b = GuestConfig.builder().cpus(2).memoryMiB(16);
        for (int i = 0; i < kv.length; i += 2) {
            b.knob(kv[i], kv[i + 1]);
        }
        try (Guest g = Guest.boot(b.build())) {
            return g.knobValues().values();
        }
    }

    private static Map<String, String> designs(Map<String, String> all) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : new String[] {"native.concurrentFlush", "lazy", "tableFree", "shouldFlushTlb", "x86.mmCpumask",
                "host.scheduler", "nestedFlush", "mremapFlush", "switchMmBarrier", "native.smtSiblingDedup"}) {
            m.put(k, all.get(k));
        }
        return m;
    }

    @Test
    void linux419IsSerialIpiEveryLazyCpuAndFreesTablesAtOnce() {
        Map<String, String> k = booted("kernel", "4.19");
        assertEquals(Map.of("native.concurrentFlush", "false", "lazy", "ipi", "tableFree", "immediate", "shouldFlushTlb", "lazy",
                "x86.mmCpumask", "clear-on-switch", "host.scheduler", "cfs", "nestedFlush", "flush", "mremapFlush", "under-ptl",
                "switchMmBarrier", "smp_mb", "native.smtSiblingDedup", "false"), designs(k));
        assertEquals("4.19", k.get("kernel"));
    }

    /** pv_wait_early() tests vcpu_is_preempted(prev->cpu) from 4.11 (75437bb304b2) until its revert in 5.4 (89340d0935c9). */
    @Test
    void spinlockWaitersHaltBehindAPreemptedWaiterFrom411To53() {
        for (String release : new String[] {"4.19", "5.2", "5.3"}) {
            assertEquals("preempted", booted("kernel", release).get("pvqspinlock.waitEarly"), release);
        }
        for (String release : new String[] {"5.10", "6.1", "6.13", "6.15", "none"}) {
            assertEquals("halted", booted("kernel", release).get("pvqspinlock.waitEarly"), release);
        }
    }

    /** A reader spins on a running writer that owns mmap_lock from 5.3 (cf69482d62d9) until 5.12 (617f3ef95177). */
    @Test
    void readersSpinOnAWriterFrom53To511() {
        for (String release : new String[] {"5.3", "5.10"}) {
            assertEquals("true", booted("kernel", release).get("rwsem.readerSpin"), release);
        }
        for (String release : new String[] {"4.19", "5.2", "6.1", "6.13", "6.15", "none"}) {
            assertEquals("false", booted("kernel", release).get("rwsem.readerSpin"), release);
        }
    }

    @Test
    void linux510SkipsLazyCpusButIsStillSerial() {
        Map<String, String> k = booted("kernel", "5.10");
        assertEquals("false", k.get("native.concurrentFlush"));
        assertEquals("skip", k.get("lazy"));
        assertEquals("clear-on-switch", k.get("x86.mmCpumask"));
        assertEquals("cfs", k.get("host.scheduler"));
    }

    @Test
    void linux61And613FlushConcurrentlyAndClearTheCpumaskOnSwitch() {
        for (String release : new String[] {"6.1", "6.13"}) {
            Map<String, String> k = booted("kernel", release);
            assertEquals("true", k.get("native.concurrentFlush"), release);
            assertEquals("lazy", k.get("shouldFlushTlb"), release);
            assertEquals("clear-on-switch", k.get("x86.mmCpumask"), release);
            assertEquals("immediate", k.get("tableFree"), release);
        }
        assertEquals("cfs", booted("kernel", "6.1").get("host.scheduler"));
        assertEquals("eevdf", booted("kernel", "6.13").get("host.scheduler"));
    }

    @Test
    void linux615FlushesSwitchingCpusTrimsTheLazyCpumaskAndFreesTablesByRcu() {
        GuestConfig.Builder b = GuestConfig.builder().cpus(2).memoryMiB(16).knob("kernel", "6.15");
        try (Guest g = Guest.boot(b.build())) {
            Map<String, String> k = g.knobValues().values();
            assertEquals(Map.of("native.concurrentFlush", "true", "lazy", "skip", "tableFree", "rcu", "shouldFlushTlb", "switching",
                    "x86.mmCpumask", "lazy-trim", "host.scheduler", "eevdf", "nestedFlush", "flush", "mremapFlush", "under-ptl",
                    "switchMmBarrier", "smp_mb", "native.smtSiblingDedup", "false"), designs(k));
            // the fields the kernel paths read follow
            assertEquals(true, g.knobs().shouldFlushSwitching);
            assertEquals(true, g.knobs().mmCpumaskTrim);
            assertEquals(TableFreePolicy.RCU, g.knobs().tableFree);
        }
    }

    @Test
    void anExplicitKnobWinsWhereverItStands() {
        // a TreeMap-backed builder has no order, so also check the merge itself in both insertion orders
        assertEquals("skip", booted("kernel", "4.19", "lazy", "skip").get("lazy"));
        assertEquals("skip", booted("lazy", "skip", "kernel", "4.19").get("lazy"));
        Map<String, String> before = new LinkedHashMap<>();
        before.put("lazy", "off");
        before.put("kernel", "6.15");
        Map<String, String> after = new LinkedHashMap<>();
        after.put("kernel", "6.15");
        after.put("lazy", "off");
        for (Map<String, String> s : java.util.List.of(before, after)) {
            Knobs k = Knobs.of(GuestKnobs.SPECS, KernelRelease.withPreset("native", GuestKnobs.SPECS, s));
            assertEquals("off", k.get("lazy"));
            assertEquals("switching", k.get("shouldFlushTlb"));
        }
    }

    @Test
    void excludedKnobsKeepTheirDefaults() {
        Map<String, String> k = booted("kernel", "4.19");
        assertEquals("sc", k.get("memoryModel"));
        assertEquals("physical", k.get("x86.x2apic"));
        assertEquals("sched", k.get("rcu"));
        assertEquals("off", k.get("pageLocks"));
        assertEquals("ok", k.get("tableBatch"));
        assertEquals("none", k.get("inject"));
    }

    @Test
    void pageFaultsWaitOnMmapLockUntilPerVmaLocks() {
        // mmap_lock is a reader/writer semaphore page faults read-lock; lock_vma_under_rcu() (5e31275cc997) is 6.4.
        assertChangesAtTheLastTwo("mmapLock", "rwsem", "vma");
    }

    @Test
    void theLruAddVectorDoublesWithThe69FolioBatch() {
        // PAGEVEC_SIZE 15 until 9cecde80aae0 "mm: increase folio batch size" (6.9-rc2), 31 since.
        assertChangesAtTheLastTwo("pagevec", "15", "31");
    }

    /** {@code knob} is {@code before} in the presets 4.19 .. 6.1 and {@code after} in 6.13, 6.15 and by default (mainline). */
    private static void assertChangesAtTheLastTwo(String knob, String before, String after) {
        for (String release : new String[] {"4.19", "5.2", "5.3", "5.10", "6.1"}) {
            assertEquals(before, booted("kernel", release).get(knob), release);
        }
        assertEquals(after, booted("kernel", "6.13").get(knob));
        assertEquals(after, booted("kernel", "6.15").get(knob));
        assertEquals(after, booted().get(knob), "the default is mainline's");
    }

    @Test
    void noneAndNoKernelKnobChangeNothing() {
        assertEquals(booted(), booted("kernel", "none"));
        assertEquals("none", booted().get("kernel"));
    }

    @Test
    void aReleaseNotInTheTableIsRefusedWithTheReleasesThatAre() {
        ModelException e = assertThrows(ModelException.class, () -> booted("kernel", "5.4"));
        assertEquals("knob kernel cannot be '5.4' (allowed: none|4.19|5.2|5.3|5.10|6.1|6.13|6.15)", e.getMessage());
    }

    @Test
    void tableFreeDependsOnTheBackend() {
        assertEquals("immediate", KernelRelease.of("6.1").settings("native").get("tableFree"));
        assertEquals("rcu", KernelRelease.of("6.1").settings("xen-pv").get("tableFree"));
        assertEquals("rcu", KernelRelease.of("4.19").settings("kvm").get("tableFree"));
        assertEquals("rcu", KernelRelease.of("6.15").settings("invlpgb").get("tableFree"));
    }
}
