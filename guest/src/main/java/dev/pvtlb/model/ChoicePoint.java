package dev.pvtlb.model;

/**
 * The kinds of decision the engine leaves open (docs/ARCHITECTURE.md, rule 2). A schedule is the list of
 * answers given at these points, so the explorer can drive, record, replay and shrink it.
 */
public enum ChoicePoint {
    /** Which of several steps due at the same virtual instant runs first. */
    ORDER,
    /** An IPI's delivery latency, as an index into the profile's latency range. */
    IPI_LATENCY,
    /** A hypercall or VM-exit latency, as an index into the profile's range. */
    HOST_LATENCY,
    /** Whether the host preempts a vCPU at a scheduling point. */
    PREEMPT,
    /** Whether an idle or lazy CPU walks its loaded page tables speculatively now. */
    SPECULATIVE_WALK,
    /**
     * How long a scenario's task computes before its next operation, within a range the
     * scenario gives: the relative phase of independent activity on different CPUs, which
     * fixed step costs would otherwise pin down.
     */
    DELAY,
    /** When a store buffered under memoryModel=tso or arm becomes visible to the other CPUs. */
    STORE_DRAIN,
    /**
     * Whether an NMI lands inside a lockless page-table walk (gup_fast, IRQs off), between reading
     * an entry and reading the table it points to: IRQs off holds off a flush IPI, not an NMI.
     */
    WALKER_STALL
}
