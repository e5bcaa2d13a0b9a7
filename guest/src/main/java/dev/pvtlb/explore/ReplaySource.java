package dev.pvtlb.explore;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.ChoicePoint;
import java.util.List;

/**
 * Replays a recorded schedule. Strict: every choice point must be the one recorded (same kind,
 * same number of alternatives), else the run has gone somewhere the schedule does not describe
 * and replay stops with an error rather than silently running a different schedule. Lenient
 * (for shrinking): a mismatch takes the recorded answer modulo the alternatives. Past the end
 * of the schedule every answer is 0, the default.
 */
final class ReplaySource implements ChoiceSource {
    private final List<Choice> schedule;
    private final boolean strict;

    ReplaySource(List<Choice> schedule, boolean strict) {
        this.schedule = schedule;
        this.strict = strict;
    }

    @Override
    public int choose(ChoicePoint point, int options, int index) {
        if (index >= schedule.size()) {
            return 0;
        }
        Choice c = schedule.get(index);
        if (c.point() != point || c.options() != options) {
            if (strict) {
                throw new ModelException("the trace does not match this model: choice " + (index + 1) + " is recorded as "
                        + c.point() + " of " + c.options() + " but the run asks " + point + " of " + options);
            }
            return c.taken() % options;
        }
        return c.taken();
    }
}
