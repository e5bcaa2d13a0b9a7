package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.NativeOs;
import java.util.ArrayList;
import java.util.List;

/**
 * A computing process pinned to each of some CPUs, for a baseline with no remote flush in it. A
 * CPU left idle after running this process stays in its mm_cpumask in lazy TLB mode, and a
 * munmap that frees page tables must flush it too (on a PVM guest, a halted vCPU is dearer to
 * reach than a running one); a CPU running another process has switched away from this mm
 * (switch_mm_irqs_off() clears its bit), so nothing of this process's flushes goes there.
 */
public final class BusyNeighbours implements AutoCloseable {
    private final List<NoiseProcess> spinners = new ArrayList<>();

    public BusyNeighbours(NativeOs os, int[] cpus) {
        try {
            for (int cpu : cpus) {
                NoiseProcess p = new NoiseProcess(os, cpu, 1, "spin");
                spinners.add(p);
                p.flipping(true);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public void close() {
        spinners.forEach(NoiseProcess::close);
    }
}
