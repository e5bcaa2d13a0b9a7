package dev.pvtlb.smp;

/**
 * How an IPI gets from one CPU to others: the local APIC on bare metal, or through the
 * hypervisor for a vCPU. Returns the sender's cost in ns and schedules each arrival.
 */
public interface IpiDelivery {
    /** Sends an IPI of {@code kind} from {@code from} to the first {@code count} of {@code targets}. */
    long send(Cpu from, Cpu[] targets, int count, IpiKind kind);
}
