package dev.pvtlb.smp;

import dev.pvtlb.model.ModelException;

/**
 * Sockets x cores x SMT threads, numbered as Linux enumerates Intel machines: thread 0 of every
 * core first, then thread 1 (so on 4 cores x 2 threads, CPU 0 and CPU 4 are siblings).
 */
public record Topology(int sockets, int coresPerSocket, int threadsPerCore) {
    /** A bound on guest size so a typo cannot ask for more than the host can model. */
    public static final int MAX_CPUS = 4096;

    public Topology {
        if (sockets < 1 || coresPerSocket < 1 || threadsPerCore < 1 || threadsPerCore > 8) {
            throw new ModelException("topology needs sockets >= 1, cores >= 1 and 1..8 threads per core, got "
                    + sockets + "x" + coresPerSocket + "x" + threadsPerCore);
        }
        checkSize("topology", (long) sockets * coresPerSocket * threadsPerCore);
    }

    /** SOCKETSxCORESxTHREADS, e.g. 2x28x2, as {@code @PvtlbGuest(topology)} gives it: {@link #parse(String, String)} of "topology". */
    public static Topology parse(String v) {
        return parse("topology", v);
    }

    /**
     * SOCKETSxCORESxTHREADS given by the setting {@code setting} (a scenario's {@code topology} or
     * {@code host.topology}); each error is one line that names the setting, so a user who set
     * both knows which one to fix.
     */
    public static Topology parse(String setting, String v) {
        String[] p = v.split("x", -1);
        if (p.length != 3) {
            throw new ModelException(setting + " must be SOCKETSxCORESxTHREADS (e.g. 1x4x2), got '" + v + "'");
        }
        int sockets = count(setting + " sockets", p[0], MAX_CPUS);
        int cores = count(setting + " cores", p[1], MAX_CPUS);
        int threads = count(setting + " threads", p[2], 8);
        checkSize(setting, (long) sockets * cores * threads);
        return new Topology(sockets, cores, threads);
    }

    private static int count(String what, String v, int max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ModelException(what + " must be an integer, got '" + v + "'");
        }
        if (n < 1 || n > max) {
            throw new ModelException(what + " must be between 1 and " + max + ", got " + n);
        }
        return (int) n;
    }

    private static void checkSize(String setting, long cpus) {
        if (cpus > MAX_CPUS) {
            throw new ModelException(setting + " of " + cpus + " CPUs exceeds the limit of " + MAX_CPUS);
        }
    }

    /** A single socket of {@code cpus} cores without SMT. */
    public static Topology flat(int cpus) {
        return new Topology(1, cpus, 1);
    }

    public int cpus() {
        return sockets * coresPerSocket * threadsPerCore;
    }

    private int coresTotal() {
        return sockets * coresPerSocket;
    }

    public int threadOf(int cpu) {
        return cpu / coresTotal();
    }

    /** Core number across sockets (0 .. sockets*cores-1). */
    public int coreOf(int cpu) {
        return cpu % coresTotal();
    }

    public int socketOf(int cpu) {
        return coreOf(cpu) / coresPerSocket;
    }

    /**
     * The x2APIC ID of {@code cpu} as Intel enumerates it (CPUID leaf 0x0B): the thread in the
     * low bits, then the core within its socket, then the socket, each field as wide as the
     * power of two that holds its count.
     */
    public int apicId(int cpu) {
        int threadBits = bitsFor(threadsPerCore);
        int coreBits = bitsFor(coresPerSocket);
        int coreInSocket = coreOf(cpu) % coresPerSocket;
        return (socketOf(cpu) << (threadBits + coreBits)) | (coreInSocket << threadBits) | threadOf(cpu);
    }

    private static int bitsFor(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** topology_sibling_cpumask(cpu): all threads of cpu's core, cpu included, ascending. */
    public int[] siblingsOf(int cpu) {
        int core = coreOf(cpu);
        int[] s = new int[threadsPerCore];
        for (int t = 0; t < threadsPerCore; t++) {
            s[t] = t * coresTotal() + core;
        }
        return s;
    }

    /** The other threads of cpu's core: {@link #siblingsOf} without cpu, ascending. */
    public int[] otherThreadsOf(int cpu) {
        return java.util.Arrays.stream(siblingsOf(cpu)).filter(s -> s != cpu).toArray();
    }

    @Override
    public String toString() {
        return sockets + "x" + coresPerSocket + "x" + threadsPerCore;
    }
}
