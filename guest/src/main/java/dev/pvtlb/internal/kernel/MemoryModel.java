package dev.pvtlb.internal.kernel;

import dev.pvtlb.model.ModelException;

/**
 * The memory ordering a run models (knob {@code memoryModel}): {@link #SC} makes every store
 * visible at once; {@link #TSO} is x86-TSO (a per-CPU FIFO store buffer, drained by locked
 * operations and serializing instructions); {@link #ARM} is arm64 (stores drain in any order
 * until a DMB/DSB, a TLBI completes only at the next DSB). See {@link StoreBuffer}.
 */
public enum MemoryModel {
    SC, TSO, ARM;

    /**
     * The ordering of the CPU a backend runs on, as the knob spells it: {@code arm} for arm64,
     * {@code tso} for every x86 backend (the shipped ones but arm64, and a user's own unless set).
     */
    public static String ofBackend(String backend) {
        return backend.equals("arm64") ? "arm" : "tso";
    }

    public static MemoryModel of(String s) {
        return switch (s) {
            case "sc" -> SC;
            case "tso" -> TSO;
            case "arm" -> ARM;
            default -> throw new ModelException("memoryModel must be sc, tso or arm, got '" + s + "'");
        };
    }
}
