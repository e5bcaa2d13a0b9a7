package dev.pvtlb.internal.mm;

/**
 * The cost of an atomic read-modify-write on one shared cache line: cheap when this CPU wrote
 * it last, a cache-to-cache transfer otherwise, dearer across sockets. The more CPUs hit the
 * line in turn, the more often each pays the transfer: that is the mm_cpumask contention the
 * lazy-TLB thread measured on context switch.
 */
public final class ContendedLine {
    private int lastCpu = -1;
    private int lastSocket = -1;

    /** Charges an atomic by {@code cpu} on {@code socket}; returns its cost in ns. */
    public long rmw(int cpu, int socket, long localNs, long sameSocketNs, long crossSocketNs) {
        long cost;
        if (lastCpu == cpu || lastCpu < 0) {
            cost = localNs;
        } else if (lastSocket == socket) {
            cost = sameSocketNs;
        } else {
            cost = crossSocketNs;
        }
        lastCpu = cpu;
        lastSocket = socket;
        return cost;
    }
}
