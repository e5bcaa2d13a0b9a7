package dev.pvtlb.explore;

import dev.pvtlb.model.ChoicePoint;

/** What a strategy answers at the {@code index}-th choice point of one schedule. */
@FunctionalInterface
public interface ChoiceSource {
    int choose(ChoicePoint point, int options, int index);
}
