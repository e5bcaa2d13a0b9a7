package dev.pvtlb.validation.calibration;

import static dev.pvtlb.validation.calibration.CalibratedProfile.figure;
import static dev.pvtlb.validation.calibration.CalibratedProfile.ns;

import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.profile.Profile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How {@link HostPrimitives} become profile keys, each with its method, the host and the spread
 * (mean, stdev, samples) in the comment above it. A key is set only where the measurement means
 * what the model charges it for; what cannot be split is said and left.
 */
final class PrimitiveMapping {
    interface KeySink {
        void key(String key, double value, List<String> comment);
    }

    interface NoteSink {
        void note(String... lines);
    }

    private final HostPrimitives p;
    private final HostMeasurements m;
    private final Profile base;
    private final Map<String, Double> set;
    private final KeySink key;
    private final NoteSink note;

    PrimitiveMapping(HostPrimitives p, HostMeasurements m, Profile base, Map<String, Double> set, KeySink key, NoteSink note) {
        this.p = p;
        this.m = m;
        this.base = base;
        this.set = set;
        this.key = key;
        this.note = note;
    }

    void map() {
        mapFault();
        mapZap();
        noteLocalPageFlush();
        mapLine();
        noteMprotect();
    }

    /**
     * Below the flush ceiling a lone munmap flushes page by page; a PVM guest does each with a
     * PVM_HC_TLB_INVLPG hypercall (arch/x86/kernel/pvm.c, pvm_flush_tlb_one_user()). The lone
     * munmap of the calibration's size, against the larger one's per-page cost and one full
     * flush, gives that per-page price; it is not mapped, since invlpg.ns also prices the
     * host's own invalidations in the hypervisor backends.
     */
    private void noteLocalPageFlush() {
        int pages = m.pages();
        int ceiling = base.integer("flush.ceiling.pages");
        double perPage = (p.munmapLarge().median() - p.munmapSmall().median())
                / (HostPrimitives.LARGE_PAGES - HostPrimitives.SMALL_PAGES);
        if (pages > ceiling || perPage <= 0) {
            return;
        }
        double full = base.get("flush.full.ns");
        double flush = (m.munmapAlone().median() - p.munmapSmall().median() + (HostPrimitives.SMALL_PAGES - pages) * perPage
                + full) / pages;
        note.note("Local per-page flush, derived " + host() + ", mapped to no key: a lone munmap of " + pages + " pages (at or"
                        + " below the " + ceiling + "-page ceiling) flushes page by page, one of " + HostPrimitives.SMALL_PAGES
                        + " pages once:",
                figure("    munmap of " + pages + " written pages, alone", m.munmapAlone()),
                figure("  - munmap of " + HostPrimitives.SMALL_PAGES + " written pages, alone", p.munmapSmall()),
                "  + " + (HostPrimitives.SMALL_PAGES - pages) + " pages * " + ns(perPage) + " ns + one full flush " + ns(full)
                        + " ns, / " + pages + " pages = " + ns(flush) + " ns per page flushed",
                "On a PVM guest each is a PVM_HC_TLB_INVLPG hypercall (pvm_flush_tlb_one_user()) whose sync of the",
                "cleared entry flushes every vCPU of the VM (kvm_flush_remote_tlbs()); the pvm backend prices it as",
                "hypercall.ns, the host's INVLPG on each shadow root and that VM-wide flush, from the keys above.");
    }

    private String host() {
        return "on " + m.cpuModel() + " (" + m.hypervisor() + " guest), cpu" + m.initiatorCpu();
    }

    /** PageFault charges fault.ns for a minor anonymous fault, zeroing included: what a first write costs. */
    private void mapFault() {
        key.key("fault.ns", p.fault().median(), List.of(
                "fault.ns, measured " + host() + ": map " + HostPrimitives.SMALL_PAGES + " pages, write each once, per page",
                "(do_anonymous_page(): allocate, zero, install the PTE; entry and exit of the fault included).",
                figure("  first touch", p.fault())));
    }

    /**
     * ZapRange charges a munmap syscall.ns + vma.op.ns + pte.op.ns per page cleared + pte.op.ns per
     * page freed + the local flush; above the flush ceiling that flush is one flush.full.ns at both
     * sizes, so the difference of two sizes is 2 * pte.op.ns per page and the rest is the intercept.
     */
    private void mapZap() {
        int extra = HostPrimitives.LARGE_PAGES - HostPrimitives.SMALL_PAGES;
        double perPage = (p.munmapLarge().median() - p.munmapSmall().median()) / extra;
        List<String> figures = List.of(
                figure("    munmap of " + HostPrimitives.LARGE_PAGES + " written pages, alone", p.munmapLarge()),
                figure("  - munmap of " + HostPrimitives.SMALL_PAGES + " written pages, alone", p.munmapSmall()));
        if (perPage <= 0) {
            List<String> why = new ArrayList<>(List.of("Per-page zap and free: not mapped. A larger munmap was not slower:"));
            why.addAll(figures);
            why.add("so noise hides the per-page cost; pte.op.ns and vma.op.ns keep " + base.name() + "'s values.");
            note.note(why.toArray(String[]::new));
            return;
        }
        double pteOp = perPage / 2;
        List<String> why = new ArrayList<>();
        why.add("pte.op.ns, derived " + host() + ": the model charges each unmapped page twice (zap_pte_range()");
        why.add("clears it, tlb_flush_mmu_free() frees it) and, above the " + base.integer("flush.ceiling.pages")
                + "-page flush ceiling, one full flush whatever the size:");
        why.addAll(figures);
        why.add("  = " + ns(perPage * extra) + " ns over " + extra + " pages; / " + extra + " / 2 = " + ns(pteOp) + " ns");
        why.add("These munmaps run alone, every other CPU busy in another process: no remote flush in them.");
        key.key("pte.op.ns", pteOp, why);
        double syscall = set.getOrDefault("syscall.ns", base.get("syscall.ns"));
        double full = base.get("flush.full.ns");
        double vma = p.munmapSmall().median() - HostPrimitives.SMALL_PAGES * perPage - syscall - full;
        List<String> vwhy = new ArrayList<>();
        vwhy.add("vma.op.ns, derived: what is left of the " + HostPrimitives.SMALL_PAGES + "-page munmap after its pages,");
        vwhy.add("the syscall and one full flush (flush.full.ns " + ns(full) + ", " + base.name() + "'s):");
        vwhy.add("  " + ns(p.munmapSmall().median()) + " - " + HostPrimitives.SMALL_PAGES + "*" + ns(perPage) + " - "
                + ns(syscall) + " - " + ns(full) + " = " + ns(vma) + " ns");
        vwhy.add("It holds whatever else a lone munmap pays here beyond the model's per-page and flush costs.");
        if (vma <= 0) {
            vwhy.set(0, "vma.op.ns: not mapped. What is left of the munmap after its pages and the syscall is not positive:");
            note.note(vwhy.toArray(String[]::new));
            return;
        }
        key.key("vma.op.ns", vma, vwhy);
    }

    /** ContendedLine charges line.same_socket.ns per transfer of a line between two CPUs of a socket. */
    private void mapLine() {
        if (p.line() == null) {
            note.note("Cache-line transfer: not measured (one CPU given).");
            return;
        }
        key.key("line.same_socket.ns", p.line().median(), List.of(
                "line.same_socket.ns, measured " + host() + " and the next CPU given: two threads take turns",
                "incrementing one counter, each spinning until the other's write; half a round trip, per batch of 1000.",
                "This guest's CPUs are taken as one socket; line.cross_socket.ns keeps " + base.name() + "'s value.",
                figure("  line transfer, one way", p.line())));
    }

    /** A cross-check, not a key: what the model would charge for the mprotect measured alone. */
    private void noteMprotect() {
        double syscall = set.getOrDefault("syscall.ns", base.get("syscall.ns"));
        double vma = set.getOrDefault("vma.op.ns", base.get("vma.op.ns"));
        double pte = set.getOrDefault("pte.op.ns", base.get("pte.op.ns"));
        int pages = m.pages();
        double flush = pages > base.integer("flush.ceiling.pages") ? base.get("flush.full.ns") : pages * base.get("invlpg.ns");
        double model = syscall + vma + pages * pte + flush;
        note.note("mprotect baseline, measured " + host() + ", mapped to no key (a check of the keys above): "
                        + pages + " written pages flipped read-only and back, per call:",
                figure("  mprotect, alone", p.mprotect()),
                "The model charges syscall.ns + vma.op.ns + pte.op.ns per page + the local flush = " + ns(model) + " ns.");
    }
}
