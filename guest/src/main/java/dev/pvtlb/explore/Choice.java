package dev.pvtlb.explore;

import dev.pvtlb.model.ChoicePoint;

/** One answer given at a choice point: its kind, how many alternatives there were, which was taken. */
public record Choice(ChoicePoint point, int options, int taken) {
    @Override
    public String toString() {
        return point + " " + options + " " + taken;
    }
}
