package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Spin;

/**
 * The threads that scale a catalogue entry to {@code cpus}: one on each CPU the race's own roles
 * leave free, each a thread of the race's mm that faults in a page of its own and then computes
 * until every thread of the race has exited. They change nothing the race reads, but they are
 * what a bigger machine changes for a flush: mm_cpumask holds every CPU, each flush targets
 * (and on x86 interrupts) all of them, and a size-gated design engages (INVLPGB's global ASID
 * for an mm active on 4 or more CPUs, consider_global_asid(); Hyper-V's HV_FLUSH_ALL_PROCESSORS
 * when the mask is every present CPU).
 */
final class Bystanders {
    /** The first region a bystander maps: past every region an entry uses (mremap-vs-truncate's reach region 5). */
    private static final int FIRST_REGION = 16;

    private final Kernel kernel;
    private int live;

    private Bystanders(Kernel kernel) {
        this.kernel = kernel;
    }

    /** Spawns a bystander of {@code mm} on each CPU below {@code cpus} but the race's {@code roles}. */
    static void spawn(Kernel g, Mm mm, int[] roles, int cpus) {
        Bystanders b = new Bystanders(g);
        java.util.BitSet taken = new java.util.BitSet(cpus);
        for (int r : roles) {
            taken.set(r);
        }
        for (int c = taken.nextClearBit(0); c < cpus; c = taken.nextClearBit(c + 1)) {
            long page = Catalogue.map(mm, FIRST_REGION + c, 1);
            b.live++;
            g.spawnPinned("bystander" + c, mm, c, b.program(page));
        }
    }

    /** Whether only bystanders are left: every thread of the race has exited. */
    private boolean raceOver() {
        return kernel.liveTasks() <= live;
    }

    private Program program(long page) {
        Op fault = Catalogue.populate(page, 1);
        Op compute = new Op() {
            @Override
            public long run(KernelCpu cpu, Task task) {
                // One step of user-mode computation at a time, taking the IPIs a spin takes.
                if (raceOver()) {
                    task.opDone();
                }
                return Spin.step(cpu);
            }
        };
        return new Program() {
            private int issued;

            @Override
            public Op next(Task task) {
                if (issued == 0) {
                    issued++;
                    return fault;
                }
                if (raceOver()) {
                    live--;
                    return null;
                }
                return compute;
            }
        };
    }
}
