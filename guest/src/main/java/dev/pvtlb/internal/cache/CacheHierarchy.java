package dev.pvtlb.internal.cache;

import dev.pvtlb.internal.profile.Costs;

/**
 * The data caches one CPU loads through: its core's L1D and L2 (shared by the core's SMT threads)
 * and its socket's last-level cache. A load costs the latency of the nearest level holding its
 * line and fills every level it missed (inclusive, as Skylake client's L3 is), so what a CPU touched
 * recently is cheap and what another working set pushed out is not. Both the program's own loads
 * and the page walker's table reads go through it (paging structures live in write-back memory and
 * the walker's reads are cached like any other load, beside the paging-structure caches, which
 * hold only upper-level entries), which is what makes a flush cost the refills it causes.
 *
 * <p>Tags only, no coherence: a store by another core does not invalidate the line here (the
 * kernel's shared lines are {@link dev.pvtlb.internal.mm.ContendedLine}s, which model that).
 *
 * <p>Under a host, the levels are the physical machine's and every VM loads through them; a VM's
 * guest-physical line becomes a host line by its {@link #vmTag}, so two VMs' pages never share a
 * line, yet each evicts the other's lines from the levels they share.
 */
public final class CacheHierarchy {
    private final SetAssociativeCache l1;
    private final SetAssociativeCache l2;
    private final SetAssociativeCache llc;
    private final long l1Ps;
    private final long l2Ps;
    private final long llcPs;
    private final long memPs;
    /** Added to every line: 0 for a guest's own caches, the VM's place in host memory under a host. */
    private final long vmTag;

    public CacheHierarchy(SetAssociativeCache l1, SetAssociativeCache l2, SetAssociativeCache llc, Costs c) {
        this(l1, l2, llc, c, 0);
    }

    /**
     * Levels shared by the VMs of one host, for VM {@code vm}: its lines are tagged above any
     * guest-physical line (2^46 lines, a 52-bit physical address), so they are the VM's own.
     */
    public CacheHierarchy(SetAssociativeCache l1, SetAssociativeCache l2, SetAssociativeCache llc, Costs c, int vm) {
        this.vmTag = (long) vm << 48;
        this.l1 = l1;
        this.l2 = l2;
        this.llc = llc;
        this.l1Ps = c.accessPs;
        this.l2Ps = c.l2Ps;
        this.llcPs = c.llcPs;
        this.memPs = c.memPs;
    }

    /** A load of physical line {@code line} (physical address >> 6): its latency in picoseconds. */
    public long loadPs(long guestLine) {
        long line = guestLine + vmTag;
        if (l1.access(line)) {
            return l1Ps;
        }
        if (l2.access(line)) {
            return l2Ps;
        }
        if (llc.access(line)) {
            return llcPs;
        }
        return memPs;
    }

    /** A core's L1D, sized by the profile: what each guest core (or host core, under a host topology) has. */
    public static SetAssociativeCache l1(Costs c) {
        return new SetAssociativeCache(c.l1Lines, c.l1Ways);
    }

    /** A core's L2, sized by the profile. */
    public static SetAssociativeCache l2(Costs c) {
        return new SetAssociativeCache(c.l2Lines, c.l2Ways);
    }

    /** A socket's LLC: the profile's share per core times the socket's cores. */
    public static SetAssociativeCache llc(Costs c, int coresPerSocket) {
        return new SetAssociativeCache(c.llcLinesPerCore * coresPerSocket, c.llcWays);
    }
}
