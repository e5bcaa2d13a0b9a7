package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

/** Answers the engine's choice points. The default answers from a seeded generator. */
public interface Chooser {
    /**
     * Picks one of {@code options} alternatives (0 .. options-1) at a choice point.
     * Called only when {@code options >= 2}.
     */
    int choose(ChoicePoint point, int options);
}
