package dev.pvtlb.pvops;

import dev.pvtlb.internal.kernel.NativeBackend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.TraceEvent;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.internal.workload.Touch;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PvOpsPatcherTest {
    /** Two CPUs of one mm: CPU1 touches the region, CPU0 populates it and unmaps it (a remote flush, a freed table). */
    private static Kernel runUnmap(GuestConfig cfg) {
        Kernel g = KernelBoot.boot(cfg);
        Mm mm = g.newMm();
        long a = Mm.MMAP_BASE;
        long len = 16 * 4096;
        mm.insertVma(a, a + len, true, false);
        g.spawn("reader", mm, 1, script(new Touch(a, 16, 2000, 0.0, false, null)));
        g.spawn("unmapper", mm, 0, script(new Touch(a, 16, 16, 1.0, true, null), new dev.pvtlb.internal.workload.Sleep(5_000),
                new Syscall(t -> new ZapRange(mm, a, a + len, ZapRange.Kind.MUNMAP), null)));
        g.run(Long.MAX_VALUE);
        return g;
    }

    private static dev.pvtlb.internal.kernel.Program script(Op... ops) {
        List<Op> list = List.of(ops);
        return new dev.pvtlb.internal.kernel.Program() {
            int i;

            @Override
            public Op next(dev.pvtlb.internal.kernel.Task t) {
                return i < list.size() ? list.get(i++) : null;
            }
        };
    }

    @Test
    void theBootedGuestHoldsAGeneratedClassBoundToTheBackend() throws Exception {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).build())) {
            Class<?> c = g.pvOps().getClass();
            assertEquals(NativeBackend.class.getName() + "$$PvOps", c.getName());
            assertEquals(PvOps.class, c.getSuperclass());
            assertTrue(Modifier.isFinal(c.getModifiers()));
            Field f = c.getDeclaredField("backend");
            assertEquals(NativeBackend.class, f.getType());
            assertTrue(Modifier.isFinal(f.getModifiers()));
            // Every op is declared on the generated class itself: no inherited dispatch, no lookup.
            assertEquals(c, c.getMethod("flushTlbMulti", Cpu.class, CpuMask.class, FlushTlbInfo.class).getDeclaringClass());
            assertEquals(c, c.getMethod("tlbRemoveTable", Cpu.class, TlbGather.class, int.class).getDeclaringClass());
            assertEquals(c, c.getMethod("tableFreePolicy").getDeclaringClass());
            assertEquals(PvOps.class, c.getMethod("flushTlbBroadcast", Cpu.class, FlushTlbInfo.class).getDeclaringClass(),
                    "native does not broadcast: the default stays");
            assertEquals("native", g.pvOps().name());
        }
    }

    @Test
    void theGeneratedClassIsMadeOncePerBackendClass() {
        try (Kernel a = KernelBoot.boot(GuestConfig.builder().cpus(2).build());
             Kernel b = KernelBoot.boot(GuestConfig.builder().cpus(2).seed(9).build())) {
            assertEquals(a.pvOps().getClass(), b.pvOps().getClass());
            assertNotEquals(a.pvOps(), b.pvOps());
        }
    }

    @Test
    void aUserBackendFromServiceLoaderBootsAndIsCalled() {
        try (Kernel g = runUnmap(GuestConfig.builder().cpus(2).backend("counting").build())) {
            CountingBackend b = CountingBackend.Provider.last;
            assertEquals("counting", g.pvOps().name());
            assertEquals(CountingBackend.class.getName() + "$$PvOps", g.pvOps().getClass().getName());
            assertEquals(1, b.flushes, "one munmap with CPU1 in the mask: one flush_tlb_multi");
            assertEquals(2, b.cpusSeen);
            assertTrue(b.lastFlushNs > 0 && b.lastFlushNs < g.engine().now(), "the context's clock is the guest's: " + b.lastFlushNs);
            assertEquals(3, b.tables, "the pte, pmd and pud tables under the only VMA are freed (the pgd stays)");
            assertEquals(1, b.policyReads);
            assertEquals(3, g.vmstat().get(dev.pvtlb.stats.Counter.TABLES_FREED), "counting.tableFree=immediate");
            assertEquals("immediate", g.knobValues().get("counting.tableFree"));
        }
    }

    @Test
    void aKnobOfAnotherBackendIsRefusedByName() {
        ModelException e = assertThrows(ModelException.class,
                () -> KernelBoot.boot(GuestConfig.builder().cpus(2).knob("counting.tableFree", "rcu").build()));
        assertEquals("knob counting.tableFree belongs to backend counting, not native (use --backend counting)", e.getMessage());
    }

    @Test
    void tracingAdviceRecordsEveryOpCall() {
        List<TraceEvent> seen = new ArrayList<>();
        GuestConfig cfg = GuestConfig.builder().cpus(2).tracePvOps(true).build();
        Kernel g = KernelBoot.boot(cfg);
        assertEquals(NativeBackend.class.getName() + "$$TracedPvOps", g.pvOps().getClass().getName());
        g.close();
        // Boot again and subscribe before running.
        try (Kernel t = runTraced(cfg, seen)) {
            assertEquals(0, t.liveTasks());
            List<String> ops = seen.stream().filter(e -> e.name().equals("pv_ops")).map(TraceEvent::detail).toList();
            // zap: three tables handed to the gather, then the flush, then the free policy (tlb_finish_mmu).
            assertEquals(5, ops.size(), ops.toString());
            for (int i = 0; i < 3; i++) {
                assertTrue(ops.get(i).startsWith("native.tlbRemoveTable: tlb(mm1) table 0x"), ops.get(i));
            }
            assertTrue(ops.get(3).startsWith("native.flushTlbMulti: {0,1} mm1 "), ops.get(3));
            assertEquals("native.tableFreePolicy:", ops.get(4));
        }
    }

    private static Kernel runTraced(GuestConfig cfg, List<TraceEvent> sink) {
        Kernel g = KernelBoot.boot(cfg);
        g.trace().subscribe(sink::add);
        Mm mm = g.newMm();
        long a = Mm.MMAP_BASE;
        long len = 16 * 4096;
        mm.insertVma(a, a + len, true, false);
        g.spawn("reader", mm, 1, script(new Touch(a, 16, 2000, 0.0, false, null)));
        g.spawn("unmapper", mm, 0, script(new Touch(a, 16, 16, 1.0, true, null), new dev.pvtlb.internal.workload.Sleep(5_000),
                new Syscall(t -> new ZapRange(mm, a, a + len, ZapRange.Kind.MUNMAP), null)));
        g.run(Long.MAX_VALUE);
        return g;
    }

    // ---------------------------------------------------------------- malformed user backends

    private static ModelException bootError(Object backend) {
        PvBackend p = new PvBackend() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public String description() {
                return "";
            }

            @Override
            public List<KnobSpec> knobs() {
                return List.of();
            }

            @Override
            public Object attach(BackendContext guest, Knobs knobs) {
                return backend;
            }
        };
        return assertThrows(PvOpsBootException.class, () -> KernelBoot.boot(GuestConfig.builder().cpus(2).backend(p).build()));
    }

    public static final class MissingOp {
        @PvOp("flush_tlb_multi")
        public void flush(Cpu cpu, CpuMask mask, FlushTlbInfo info) {}

        @PvOp("table_free_policy")
        public TableFreePolicy policy() {
            return TableFreePolicy.RCU;
        }
    }

    public static final class WrongSignature {
        @PvOp("flush_tlb_multi")
        public void flush(Cpu cpu, CpuMask mask) {}

        @PvOp("tlb_remove_table")
        public void removeTable(Cpu cpu, TlbGather tlb, int table) {}

        @PvOp("table_free_policy")
        public TableFreePolicy policy() {
            return TableFreePolicy.RCU;
        }
    }

    public static final class DuplicateOp {
        @PvOp("flush_tlb_multi")
        public void flushA(Cpu cpu, CpuMask mask, FlushTlbInfo info) {}

        @PvOp("flush_tlb_multi")
        public void flushB(Cpu cpu, CpuMask mask, FlushTlbInfo info) {}

        @PvOp("tlb_remove_table")
        public void removeTable(Cpu cpu, TlbGather tlb, int table) {}

        @PvOp("table_free_policy")
        public TableFreePolicy policy() {
            return TableFreePolicy.RCU;
        }
    }

    public static final class UnknownOp {
        @PvOp("flush_tlb_others")
        public void flush(Cpu cpu, CpuMask mask, FlushTlbInfo info) {}
    }

    static final class NotPublic {
        @PvOp("flush_tlb_multi")
        public void flush(Cpu cpu, CpuMask mask, FlushTlbInfo info) {}
    }

    @Test
    void aMissingOpIsABootError() {
        assertEquals("backend 'broken' (" + MissingOp.class.getName() + "): missing op tlb_remove_table "
                + "(a public method annotated @PvOp(\"tlb_remove_table\") with signature void (Cpu, TlbGather, int))",
                bootError(new MissingOp()).getMessage());
    }

    @Test
    void aWrongSignatureIsABootError() {
        assertEquals("backend 'broken' (" + WrongSignature.class.getName() + "): WrongSignature.flush has the wrong "
                + "signature for flush_tlb_multi: void (Cpu, CpuMask), expected void (Cpu, CpuMask, FlushTlbInfo)",
                bootError(new WrongSignature()).getMessage());
    }

    @Test
    void anOpImplementedTwiceIsABootError() {
        assertEquals("backend 'broken' (" + DuplicateOp.class.getName() + "): op flush_tlb_multi is implemented twice, "
                + "by DuplicateOp.flushA and DuplicateOp.flushB", bootError(new DuplicateOp()).getMessage());
    }

    @Test
    void anUnknownOpAndANonPublicClassAreBootErrors() {
        assertTrue(bootError(new UnknownOp()).getMessage().endsWith("UnknownOp.flush implements unknown op 'flush_tlb_others' "
                + "(ops: flush_tlb_multi, tlb_remove_table, table_free_policy, flush_tlb_broadcast, flush_tlb_user)"));
        assertTrue(bootError(new NotPublic()).getMessage().endsWith(": the class must be public so the patched pv_ops can call it"));
    }
}
