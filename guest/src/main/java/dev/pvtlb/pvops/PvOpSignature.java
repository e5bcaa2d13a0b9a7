package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The pv_ops entries a backend can implement, with the Java signature each must have and the
 * {@link PvOps} method it is patched into. Required ops have no default: the kernel's native
 * entries are a backend of their own ({@code native}), not a fallback a backend inherits.
 */
enum PvOpSignature {
    /** pv_ops.mmu.flush_tlb_multi(cpumask, info). */
    FLUSH_TLB_MULTI("flush_tlb_multi", "flushTlbMulti", true, void.class, Cpu.class, CpuMask.class, FlushTlbInfo.class),
    /** pv_ops.mmu.tlb_remove_table(tlb, table). */
    TLB_REMOVE_TABLE("tlb_remove_table", "tlbRemoveTable", true, void.class, Cpu.class, TlbGather.class, int.class),
    /** How gathered tables are freed after the flush (the kernel's choice of tlb_remove_table_* path). */
    TABLE_FREE_POLICY("table_free_policy", "tableFreePolicy", true, TableFreePolicy.class),
    /**
     * Optional: a flush that bypasses mm_cpumask because the hardware broadcasts it (x86
     * broadcast_tlb_flush() for an mm with a global ASID; arm64's TLBI ...IS). Returns false
     * when this flush is not broadcast; the default never broadcasts.
     */
    FLUSH_TLB_BROADCAST("flush_tlb_broadcast", "flushTlbBroadcast", false, boolean.class, Cpu.class, FlushTlbInfo.class),
    /**
     * Optional: pv_ops.mmu.flush_tlb_one_user(addr) per page, or flush_tlb_user() for everything,
     * as flush_tlb_func() calls them on the CPU being flushed. Gets the cost of the native
     * instructions and returns what the op costs instead; the default is the native INVLPG / CR3.
     */
    FLUSH_TLB_USER("flush_tlb_user", "flushTlbUser", false, long.class, Cpu.class, FlushTlbInfo.class, long.class, long.class);

    public final String opName;
    /** The {@link PvOps} method the op is patched into. */
    final String javaName;
    public final boolean required;
    final Class<?> returnType;
    final List<Class<?>> parameters;

    PvOpSignature(String opName, String javaName, boolean required, Class<?> returnType, Class<?>... parameters) {
        this.opName = opName;
        this.javaName = javaName;
        this.required = required;
        this.returnType = returnType;
        this.parameters = List.of(parameters);
    }

    public static PvOpSignature byOpName(String name) {
        for (PvOpSignature s : values()) {
            if (s.opName.equals(name)) {
                return s;
            }
        }
        return null;
    }

    boolean matches(Method m) {
        return m.getReturnType() == returnType && Arrays.asList(m.getParameterTypes()).equals(parameters);
    }

    /** The signature as a reader writes it: {@code void (Cpu, CpuMask, FlushTlbInfo)}. */
    public String describe() {
        return returnType.getSimpleName() + " (" + parameters.stream().map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }

    static String describe(Method m) {
        return m.getReturnType().getSimpleName() + " ("
                + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }
}
