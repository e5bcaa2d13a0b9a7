package dev.pvtlb.explore;

import dev.pvtlb.internal.sim.ChoicePoint;

/** What a strategy answers at the {@code index}-th choice point of one schedule. */
@FunctionalInterface
@SuppressWarnings("exports") // LEAK: names a type of dev.pvtlb.internal in its API
public interface ChoiceSource {
    int choose(ChoicePoint point, int options, int index);
}
