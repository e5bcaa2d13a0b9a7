package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.sim.Rng;
import dev.pvtlb.model.ModelException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The guest's processes and tasks: init_mm, each address space made by mm_alloc() (its context
 * id from a counter, as ctx_id comes from last_mm_ctx_id), every task spawned, and how many have
 * not exited yet (a run ends when none is left).
 */
final class Processes {
    private final List<Mm> mms = new ArrayList<>();
    private final List<Task> tasks = new ArrayList<>();
    private long nextCtxId = 1;
    private int liveTasks;

    /** init_mm: the kernel's own address space, the first context id. */
    Mm initMm(PageTables pageTables, int nrCpus) {
        return new Mm(0, nextCtxId++, pageTables.allocPgd(), nrCpus, true);
    }

    /** mm_alloc() for a new process. */
    Mm newMm(PageTables pageTables, int nrCpus) {
        Mm mm = new Mm(mms.size() + 1, nextCtxId++, pageTables.allocPgd(), nrCpus, false);
        mms.add(mm);
        return mm;
    }

    /**
     * A runnable task of {@code mm} queued on {@code cpus[cpu]}, allowed on {@code allowed} (null:
     * every CPU), its random stream the {@code rng}'s for its number; the CPU is woken to run it.
     */
    Task spawn(String name, Mm mm, KernelCpu[] cpus, int cpu, BitSet allowed, Program program, Rng rng) {
        if (cpu < 0 || cpu >= cpus.length) {
            throw new ModelException("task " + name + " placed on cpu" + cpu + " but the guest has " + cpus.length + " CPUs");
        }
        if (allowed != null && !allowed.get(cpu)) {
            throw new ModelException("task " + name + " placed on cpu" + cpu + " outside its affinity " + allowed);
        }
        Task t = new Task(tasks.size(), name, mm, cpus[cpu], allowed, program, rng.forPurpose("task/" + tasks.size()));
        mm.get();
        tasks.add(t);
        cpus[cpu].rq.queue.add(t);
        cpus[cpu].wake();
        liveTasks++;
        return t;
    }

    /** The cpus_mask of a task pinned to CPU {@code cpu} of {@code nrCpus} alone (empty when there is no such CPU). */
    static BitSet pinnedTo(int cpu, int nrCpus) {
        BitSet only = new BitSet(nrCpus);
        if (cpu >= 0 && cpu < nrCpus) {
            only.set(cpu);
        }
        return only;
    }

    /** A task's program ended. */
    void exited() {
        liveTasks--;
    }

    int liveTasks() {
        return liveTasks;
    }

    /** A guest reset: no process, no task. */
    void clear() {
        mms.clear();
        tasks.clear();
        liveTasks = 0;
        nextCtxId = 1;
    }
}
