package dev.pvtlb.scenario;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.kernel.Mprotect;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.stats.TraceEvent;
import dev.pvtlb.internal.workload.Sleep;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.internal.workload.Touch;
import java.util.ArrayList;
import java.util.List;

/**
 * Helpers for scripted scenarios: one process whose VMAs sit 4 MiB apart (so each has its own
 * page-table page), tasks pinned to CPUs, and the trace kept for assertions.
 */
public final class Scripted {
    public static final long PAGE = PhysMem.PAGE_SIZE;
    /** Start of region i: 4 MiB apart, 2 MiB aligned. */
    public static long region(int i) {
        return Mm.MMAP_BASE + (long) i * (4L << 20);
    }

    public final Kernel guest;
    public final Mm mm;
    public final List<TraceEvent> trace = new ArrayList<>();

    public Scripted(GuestConfig cfg) {
        guest = KernelBoot.boot(cfg);
        mm = guest.newMm();
        guest.trace().subscribe(trace::add);
    }

    /** Maps region i with {@code pages} pages. */
    public long map(int i, int pages) {
        mm.insertVma(region(i), region(i) + pages * PAGE, true, false);
        return region(i);
    }

    public static Op touch(long base, int pages, long accesses) {
        return new Touch(base, pages, accesses, 0.0, false, null);
    }

    /** Touches every page once, writing: faults all pages in. */
    public static Op populate(long base, int pages) {
        return new Touch(base, pages, pages, 1.0, true, null);
    }

    public Op munmap(long start, int pages) {
        return new Syscall(t -> new ZapRange(mm, start, start + pages * PAGE, ZapRange.Kind.MUNMAP), null);
    }

    /** madvise(MADV_DONTNEED): the pages go, the VMA stays; a later touch faults in fresh pages. */
    public Op madvise(long start, int pages) {
        return new Syscall(t -> new ZapRange(mm, start, start + pages * PAGE, ZapRange.Kind.MADV_DONTNEED), null);
    }

    public Op mprotectRo(long start, int pages) {
        return new Syscall(t -> new Mprotect(mm, start, start + pages * PAGE, false), null);
    }

    public static Op sleep(long ns) {
        return new Sleep(ns);
    }

    public void spawn(int cpu, Op... ops) {
        guest.spawnPinned("t" + cpu, mm, cpu, new Script(ops));
    }

    public void run() {
        guest.run(Long.MAX_VALUE);
    }

    public long count(Counter c) {
        return guest.vmstat().get(c);
    }

    public List<TraceEvent> flushes(int cpu, TlbFlushReason reason) {
        return trace.stream().filter(e -> e.cpu() == cpu && e.reason() == reason).toList();
    }

    public long remoteShootdownsOn(int cpu) {
        return flushes(cpu, TlbFlushReason.TLB_REMOTE_SHOOTDOWN).size();
    }
}
