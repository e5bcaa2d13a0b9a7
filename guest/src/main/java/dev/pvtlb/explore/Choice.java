package dev.pvtlb.explore;

import dev.pvtlb.internal.sim.ChoicePoint;

/** One answer given at a choice point: its kind, how many alternatives there were, which was taken. */
@SuppressWarnings("exports") // LEAK: names a type of dev.pvtlb.internal in its API
public record Choice(ChoicePoint point, int options, int taken) {
    @Override
    public String toString() {
        return point + " " + options + " " + taken;
    }
}
