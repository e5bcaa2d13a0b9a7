package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

/** Answers the engine's choice points. The default answers from a seeded generator. */
public interface Chooser {
    /**
     * Picks one of {@code options} alternatives (0 .. options-1) at a choice point.
     * Called only when {@code options >= 2}.
     */
    int choose(ChoicePoint point, int options);

    /**
     * Whether the answers come from the explorer: choices that only an exploration needs (where
     * the host preempts a vCPU, by its steps) are offered then, and a run keeps its timing.
     */
    default boolean exploring() {
        return false;
    }
}
