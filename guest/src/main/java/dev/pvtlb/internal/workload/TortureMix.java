package dev.pvtlb.internal.workload;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.sim.SplitMix;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * tlb-torture's {@code mix=} parameter: a weight for each kind of operation, as rcutorture's
 * {@code torture_type} and its per-operation probabilities are. Written {@code kind:weight}
 * separated by commas, e.g. {@code touch:6,munmap:3}; a kind left out has weight 0.
 */
final class TortureMix {
    /** The operations a torture thread mixes, each named after the system call or event it models. */
    enum Kind {
        /** User-mode reads and writes of a slot: every one checked by the hazard detector. */
        TOUCH,
        /** munmap() of part or all of a slot (zap, flush, free; tables too when all of it goes), mapped again at once. */
        MUNMAP,
        /** madvise(MADV_DONTNEED) of part of a slot, concurrent with other zaps of the mm (nested flushes). */
        MADVISE,
        /** mprotect() of a slot, read-only and back (change_protection(), flush_tlb_range()). */
        MPROTECT,
        /** mremap() of a slot's pages to the process's spare range (move_page_tables()). */
        MREMAP,
        /** get_user_pages_fast() over a slot, lockless, racing its unmap. */
        GUP,
        /** fork() of short-lived child processes, new mms on this CPU, that map, touch, unmap and exit; the parent waits a while. */
        FORK,
        /** Block for a while: the CPU idles in lazy TLB mode on the mm and comes back. */
        NAP,
        /** MADV_DONTNEED of a range together with another thread of the process (NestedZap); weight 0 unless given. */
        NESTED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final String DEFAULT = "touch:8,munmap:3,madvise:3,mprotect:2,mremap:1,gup:2,fork:1,nap:2";

    private final Kind[] kinds = Kind.values();
    private final int[] cumulative = new int[kinds.length];
    private final int total;

    private TortureMix(Map<Kind, Integer> weights) {
        int sum = 0;
        for (int i = 0; i < kinds.length; i++) {
            sum += weights.getOrDefault(kinds[i], 0);
            cumulative[i] = sum;
        }
        this.total = sum;
    }

    static TortureMix parse(String workload, String spec) {
        Map<Kind, Integer> weights = new EnumMap<>(Kind.class);
        for (String part : spec.strip().split(",")) {
            String p = part.strip();
            int colon = p.indexOf(':');
            Kind kind = colon < 0 ? null : kindOf(p.substring(0, colon).strip());
            int w = colon < 0 ? -1 : weightOf(p.substring(colon + 1).strip());
            if (kind == null || w < 0 || weights.containsKey(kind)) {
                throw new ModelException(workload + ": parameter mix must be kind:weight pairs (kinds: "
                        + String.join(", ", labels()) + "; weights 0 to 1000, each kind once), got '" + spec.strip() + "'");
            }
            weights.put(kind, w);
        }
        TortureMix m = new TortureMix(weights);
        if (m.total == 0) {
            throw new ModelException(workload + ": parameter mix gives every operation weight 0, got '" + spec.strip() + "'");
        }
        return m;
    }

    /** The next operation, drawn by weight from {@code r}. */
    Kind pick(SplitMix r) {
        int x = r.nextInt(total);
        for (int i = 0; i < kinds.length; i++) {
            if (x < cumulative[i]) {
                return kinds[i];
            }
        }
        throw new IllegalStateException("weights do not add up");
    }

    private static Kind kindOf(String label) {
        for (Kind k : Kind.values()) {
            if (k.label().equals(label)) {
                return k;
            }
        }
        return null;
    }

    private static int weightOf(String v) {
        try {
            int w = Integer.parseInt(v);
            return w <= 1000 ? w : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String[] labels() {
        Kind[] all = Kind.values();
        String[] l = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            l[i] = all[i].label();
        }
        return l;
    }
}
