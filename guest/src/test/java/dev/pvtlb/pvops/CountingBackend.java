package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import java.util.List;

/**
 * A user's backend as a user would write it: a plain class (no PvOps superclass) whose
 * annotated methods implement the ops. It counts its calls and delegates to native IPIs;
 * registered through ServiceLoader from this test source set.
 */
public final class CountingBackend {
    public int flushes;
    public int tables;
    public int policyReads;
    /** Virtual time and CPUs of the guest at the last flush_tlb_multi, read through the context. */
    public long lastFlushNs = -1;
    public int cpusSeen;
    private final BackendContext guest;

    public CountingBackend(BackendContext guest) {
        this.guest = guest;
    }

    @PvOp("flush_tlb_multi")
    public void flush(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        flushes++;
        lastFlushNs = guest.nowNs();
        cpusSeen = guest.topology().cpus();
        guest.nativeFlushTlbMulti(cpu, mask, info);
    }

    @PvOp("tlb_remove_table")
    public void removeTable(Cpu cpu, TlbGather tlb, int table) {
        tables++;
        tlb.addTable(table);
    }

    @PvOp("table_free_policy")
    public TableFreePolicy policy() {
        policyReads++;
        return TableFreePolicy.valueOf(guest.knobValues().get("counting.tableFree").toUpperCase(java.util.Locale.ROOT));
    }

    public static final class Provider implements PvBackend {
        /** The last instance attached, for the test to read its counts. */
        static CountingBackend last;

        /** Made by ServiceLoader. */
        public Provider() {}

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String description() {
            return "test: native IPIs, counting every pv_ops call";
        }

        @Override
        public List<KnobSpec> knobs() {
            return List.of(KnobSpec.choice("counting.tableFree", "immediate", "test knob", "immediate", "rcu"));
        }

        @Override
        public Object attach(BackendContext guest, Knobs knobs) {
            last = new CountingBackend(guest);
            return last;
        }
    }
}
