package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one place a run's knobs are resolved, against the shipped backends: the guest kernel's and
 * the host model's knobs on every backend, a backend's only on its own, and the kernel preset
 * beneath what is set explicitly.
 */
class KnobRegistryTest {
    private static final PvBackend NATIVE = PvBackends.byName("native");
    private static final PvBackend KVM = PvBackends.byName("kvm");

    /**
     * A workload's own default (the catalogue's mmapLock=off) stands in for the knob's default only:
     * a kernel preset overrides it, and a knob set explicitly overrides both.
     */
    @Test
    void aWorkloadsDefaultLiesBeneathThePresetAndTheExplicitKnob() {
        Map<String, String> workload = Map.of("mmapLock", "off");
        assertEquals("off", KnobRegistry.resolve(NATIVE, Map.of(), workload).get("mmapLock"));
        assertEquals("vma", KnobRegistry.resolve(NATIVE, Map.of(), Map.of()).get("mmapLock"), "the knob's own default");
        assertEquals("rwsem", KnobRegistry.resolve(NATIVE, Map.of("kernel", "5.2"), workload).get("mmapLock"));
        assertEquals("vma", KnobRegistry.resolve(NATIVE, Map.of("kernel", "6.15"), workload).get("mmapLock"));
        assertEquals("rwsem", KnobRegistry.resolve(NATIVE, Map.of("kernel", "6.15", "mmapLock", "rwsem"), workload).get("mmapLock"));
    }

    @Test
    void aKnobOfAnotherBackendIsRefusedWithTheBackendToChoose() {
        ModelException e = assertThrows(ModelException.class, () -> KnobRegistry.resolve(NATIVE, Map.of("kvm.boost", "true")));
        assertEquals("knob kvm.boost belongs to backend kvm, not native (use --backend kvm)", e.getMessage());
    }

    @Test
    void aKnobNoOwnerDeclaresIsLeftToTheUnknownKnobMessage() {
        ModelException e = assertThrows(ModelException.class, () -> KnobRegistry.resolve(NATIVE, Map.of("lazzy", "off")));
        assertEquals("unknown knob 'lazzy' (known: host.balance, host.scheduler, inject, kernel, lazy, lruAddDrain, memoryModel, mmapLock, "
                + "mremapFlush, native.concurrentFlush, native.smtSiblingDedup, nestedFlush, pageLocks, pagevec, pvqspinlock.waitEarly, rcu, rwsem.readerSpin, sched.balance, "
                + "shouldFlushTlb, smt.flushDropsSibling, switchMmBarrier, tableBatch, tableFree, virtSpinLock, x86.mmCpumask, x86.x2apic, "
                + "zeroPage)", e.getMessage());
    }

    @Test
    void theHostModelsKnobsResolveOnBareMetalAndUnderKvm() {
        Knobs n = KnobRegistry.resolve(NATIVE, Map.of("host.scheduler", "cfs"));
        assertEquals("cfs", n.get("host.scheduler"));
        assertEquals("none", n.get("host.balance"));
        Knobs k = KnobRegistry.resolve(KVM, Map.of("host.balance", "idle"));
        assertEquals("idle", k.get("host.balance"));
        assertEquals("eevdf", k.get("host.scheduler"));
        ModelException e = assertThrows(ModelException.class, () -> KnobRegistry.resolve(KVM, Map.of("host.balance", "maybe")));
        assertEquals("knob host.balance cannot be 'maybe' (allowed: none|idle|periodic|periodic-5.10)", e.getMessage());
    }

    @Test
    void aKernelPresetFillsInBeneathAnExplicitSetting() {
        Knobs k = KnobRegistry.resolve(KVM, Map.of("kernel", "4.19", "kvm.boost", "true", "host.scheduler", "eevdf"));
        assertEquals("true", k.get("kvm.boost")); // 4.19 has no boost (d73eb57b80b9 is 5.3): the explicit setting wins
        assertEquals("eevdf", k.get("host.scheduler")); // 4.19's host ran CFS: the explicit setting wins
        assertEquals("false", k.get("kvm.pvSchedYield")); // from the preset (715062970f37 is 5.3)
        assertEquals("plain-write", k.get("kvm.hostClearPreempted")); // from the preset (CVE-2019-3016)
        assertEquals("idle", k.get("host.balance")); // the host model's knob from the preset
        assertEquals("rcu", k.get("tableFree")); // the preset's value for KVM's PV flush, not bare metal's immediate
        assertEquals("ipi", k.get("lazy"));
        assertEquals("immediate", KnobRegistry.resolve(NATIVE, Map.of("kernel", "4.19")).get("tableFree"));
    }

    @Test
    void theCommonKnobsAreTheGuestKernelsAndTheHostModelsInListingOrder() {
        assertEquals(List.of("native.concurrentFlush", "native.smtSiblingDedup", "lazy", "tableFree", "nestedFlush",
                "shouldFlushTlb", "mremapFlush", "tableBatch", "memoryModel", "switchMmBarrier", "x86.x2apic",
                "smt.flushDropsSibling", "x86.mmCpumask", "rcu", "mmapLock", "rwsem.readerSpin", "pageLocks", "pagevec", "lruAddDrain", "pvqspinlock.waitEarly", "virtSpinLock", "zeroPage", "host.scheduler",
                "host.balance", "sched.balance", "kernel", "inject"), names(KnobRegistry.common()));
    }

    @Test
    void aBackendsKnobsJoinTheCommonOnesOnlyForThatBackend() {
        List<String> kvm = names(KnobRegistry.of(KVM));
        assertEquals(names(KnobRegistry.common()), kvm.subList(0, KnobRegistry.common().size()));
        assertTrue(kvm.contains("kvm.boost"), kvm::toString);
        assertFalse(kvm.contains("hyperv.ex"), kvm::toString);
        assertEquals(names(KnobRegistry.common()), names(KnobRegistry.of(NATIVE)));
        assertTrue(KnobRegistry.isKnob("kvm.boost"));
        assertTrue(KnobRegistry.isKnob("host.balance"));
        assertTrue(KnobRegistry.isKnob("lazy"));
        assertFalse(KnobRegistry.isKnob("lazzy"));
    }

    private static List<String> names(List<KnobSpec> specs) {
        return specs.stream().map(KnobSpec::name).toList();
    }
}
