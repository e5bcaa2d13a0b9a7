package dev.pvtlb.explore;

import dev.pvtlb.hazard.HazardKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a failing schedule smaller while it still fails the same way (same hazard kind):
 * cut it to the choices made before the hazard, then set non-default answers back to the
 * default one by one (last first), then try dropping whole choices. Each attempt is a replay
 * (lenient: the shorter schedule may meet different choice points). Bounded in attempts.
 */
final class Shrinker {
    static final int MAX_ATTEMPTS = 400;

    private final ScheduleRunner runner;
    private int attempts;

    Shrinker(ScheduleRunner runner) {
        this.runner = runner;
    }

    ScheduleRun shrink(ScheduleRun failing) {
        HazardKind kind = failing.hazard().kind();
        ScheduleRun best = failing;
        // Pass 0: the shortest prefix that still fails (default answers after it), by bisection.
        int lo = 0;
        int hi = best.choices().size();
        while (lo < hi && attempts < MAX_ATTEMPTS) {
            int mid = (lo + hi) >>> 1;
            ScheduleRun r = attempt(new ArrayList<>(best.choices().subList(0, mid)), kind);
            if (r != null) {
                hi = mid;
                best = r;
            } else {
                lo = mid + 1;
            }
        }
        // Pass 1: answers back to the default.
        for (int i = best.choices().size() - 1; i >= 0 && attempts < MAX_ATTEMPTS; i--) {
            if (i >= best.choices().size() || best.choices().get(i).taken() == 0) {
                continue;
            }
            List<Choice> c = new ArrayList<>(best.choices());
            Choice old = c.get(i);
            c.set(i, new Choice(old.point(), old.options(), 0));
            ScheduleRun r = attempt(c, kind);
            if (r != null) {
                best = r;
            }
        }
        // Pass 2: drop choices (the run then meets its later choice points earlier).
        for (int i = best.choices().size() - 1; i >= 0 && attempts < MAX_ATTEMPTS; i--) {
            if (i >= best.choices().size()) {
                continue;
            }
            List<Choice> c = new ArrayList<>(best.choices());
            c.remove(i);
            ScheduleRun r = attempt(c, kind);
            if (r != null && r.steps() <= best.steps()) {
                best = r;
            }
        }
        return best;
    }

    private ScheduleRun attempt(List<Choice> choices, HazardKind kind) {
        attempts++;
        ScheduleRun r = runner.run(new ReplaySource(choices, false), 0);
        if (r.found() && r.hazard().kind() == kind) {
            // Keep only what the run consumed, recorded as it was actually answered.
            return r;
        }
        return null;
    }
}
