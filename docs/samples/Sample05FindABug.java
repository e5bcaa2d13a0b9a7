package samples;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.ScheduleRun;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.run.Scenario;

/**
 * Sample 5: let the explorer find a bug. In catalogue scenario gup-fast-vs-free, CPU 0 unmaps a
 * range and frees its page table while CPU 1 walks it in gup_fast. Under Xen PV the flush is a
 * hypercall that does not wait for the walker, so freeing the table right after the flush
 * (tableFree=immediate) lets a preempted walker resume inside a freed table. The CLI equivalent:
 * {@code pvtlb explore gup-fast-vs-free --backend xen-pv --set tableFree=immediate}.
 */
public final class Sample05FindABug {
    static Scenario scenario(String tableFree) {
        return Scenario.of("gup-fast-vs-free").backend("xen-pv").set("tableFree", tableFree).seed(1);
    }

    public static void main(String[] args) {
        // Random schedules (seed 1) until a hazard; at most 2000 schedules or 600 s. The budget
        // in seconds is a safety net only: when it is what stops a run, the count depends on the host.
        ExploreResult bug = new Explorer(scenario("immediate")).explore(Explorer.strategy("random", 1, 3, 2), 2000, 600);
        System.out.println("tableFree=immediate: " + (bug.safe() ? "SAFE" : "HAZARD in schedule " + bug.foundAt()));
        Hazard h = bug.hazard();
        System.out.println("  " + h);
        // The failing schedule is shrunk: fewer choices, most of them the default answer.
        System.out.printf("  shrunk schedule: %d choices (%d non-default), %d steps%n",
                bug.shrunk().size(), bug.nonDefaultChoices(), bug.shrunkSteps());
        // The readable trace ends at the violation; show its last lines.
        bug.trace().subList(Math.max(0, bug.trace().size() - 4), bug.trace().size())
                .forEach(l -> System.out.println("  | " + l));

        // A schedule is a list of choices: replaying it runs the same interleaving again.
        ScheduleRun again = new Explorer(scenario("immediate")).replay(bug.shrunk());
        System.out.println("replay: " + (again.found() && again.hazard().equals(h) ? "same hazard" : "DIFFERENT: " + again.hazard()));

        // The fix: free page tables after an RCU grace period. The same 2000 random schedules find nothing.
        ExploreResult fixed = new Explorer(scenario("rcu")).explore(Explorer.strategy("random", 1, 3, 2), 2000, 600);
        System.out.println("tableFree=rcu: " + (fixed.safe() ? "SAFE (no hazard in " + fixed.schedules() + " schedules)"
                : "HAZARD " + fixed.hazard()));
    }
}
