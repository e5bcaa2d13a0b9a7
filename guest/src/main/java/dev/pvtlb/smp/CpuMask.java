package dev.pvtlb.smp;

import java.util.Arrays;

/** A set of CPU numbers, as the kernel's {@code struct cpumask}: a fixed-size bitmap. */
public final class CpuMask {
    private final long[] words;
    private final int nrCpus;

    public CpuMask(int nrCpus) {
        this.nrCpus = nrCpus;
        this.words = new long[(nrCpus + 63) >>> 6];
    }

    public int nrCpus() {
        return nrCpus;
    }

    public void set(int cpu) {
        words[cpu >>> 6] |= 1L << cpu;
    }

    public void clear(int cpu) {
        words[cpu >>> 6] &= ~(1L << cpu);
    }

    public boolean test(int cpu) {
        return (words[cpu >>> 6] & (1L << cpu)) != 0;
    }

    public void clearAll() {
        Arrays.fill(words, 0);
    }

    public void setAll() {
        for (int c = 0; c < nrCpus; c++) {
            set(c);
        }
    }

    public void copyFrom(CpuMask other) {
        System.arraycopy(other.words, 0, words, 0, words.length);
    }

    /** First CPU at or after {@code from} in the mask, or -1 (cpumask_next). */
    public int next(int from) {
        if (from >= nrCpus) {
            return -1;
        }
        int w = from >>> 6;
        long bits = words[w] & (-1L << from);
        while (true) {
            if (bits != 0) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                return c < nrCpus ? c : -1;
            }
            if (++w == words.length) {
                return -1;
            }
            bits = words[w];
        }
    }

    /** Any CPU in the mask other than {@code cpu}, or -1 (cpumask_any_but). */
    public int anyBut(int cpu) {
        for (int c = next(0); c >= 0; c = next(c + 1)) {
            if (c != cpu) {
                return c;
            }
        }
        return -1;
    }

    /** cpumask_weight. */
    public int weight() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    public boolean isEmpty() {
        for (long w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    /** True when every CPU of this mask is also in {@code other} (cpumask_subset). */
    public boolean subsetOf(CpuMask other) {
        for (int i = 0; i < words.length; i++) {
            if ((words[i] & ~other.words[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int c = next(0); c >= 0; c = next(c + 1)) {
            if (b.length() > 1) b.append(',');
            b.append(c);
        }
        return b.append('}').toString();
    }
}
