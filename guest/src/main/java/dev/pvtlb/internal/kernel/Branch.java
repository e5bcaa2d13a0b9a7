package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.internal.sim.GraphCopy;
import java.util.ArrayList;
import java.util.List;

/**
 * A branch of a guest's run as it stands between two steps, as a checkpointing simulator forks
 * its state: a copy of every object of the model ({@link GraphCopy}) that shares only the guest's
 * memory and its caches' tags, whose writes are journalled until {@link #close} undoes them, so that the guest it was
 * taken from goes on as if the branch had never run. The explorer runs a window of a workload
 * from each (ScheduleRunner.runWindows). One branch at a time per guest.
 */
public final class Branch implements AutoCloseable {
    private final Kernel kernel;
    private final PhysMem mem;
    private final GraphCopy.Copy<Kernel> copy;

    private Branch(Kernel kernel, PhysMem mem, GraphCopy.Copy<Kernel> copy) {
        this.kernel = kernel;
        this.mem = mem;
        this.copy = copy;
    }

    /**
     * Branches {@code g}'s run: {@code chooser} answers the branch's choice points; the branch has
     * no hazard listener. What cannot change (the configuration, profile, costs, knobs) is shared, as
     * are the run's chooser and listener, which the branch replaces. A run keeping a step log is
     * not branched.
     * Throws UnsupportedOperationException when the model holds what cannot be copied (an unknown
     * JDK class, a co-guest): the caller runs from boot then.
     */
    public static Branch of(Kernel g, Chooser chooser) {
        if (g.primaryGuest() != null) {
            throw new UnsupportedOperationException("a co-guest is branched with its primary");
        }
        if (g.stepLog() != null) {
            // Its trace subscription would write the branch's steps into the run's log.
            throw new UnsupportedOperationException("a run keeping a step log is not branched");
        }
        List<Object> shared = new ArrayList<>(List.of(g.config(), g.profile(), g.costs(), g.knobValues(), g.knobs(), g.mem(),
                g.engine().chooser()));
        if (g.hazards().listener() != null) {
            shared.add(g.hazards().listener());
        }
        GraphCopy.Copy<Kernel> c = GraphCopy.branch(g, shared);
        Kernel copy = c.root();
        copy.engine().chooser(chooser);
        copy.hazards().listener(null);
        g.mem().journal();
        return new Branch(copy, g.mem(), c);
    }

    /** The branch's guest, to run. */
    public Kernel kernel() {
        return kernel;
    }

    /** Undoes the branch's writes to the memory and caches it shares with the run it was taken from. */
    @Override
    public void close() {
        mem.rollback();
        copy.rollBack();
    }
}
