package dev.pvtlb.cli;

import java.util.function.ToDoubleFunction;

/**
 * One published figure of an experiment and the emulated figure set against it.
 *
 * @param name what the figure is, in a few words
 * @param published the published figure in {@code unit} (derived from the source's raw numbers)
 * @param asPublished how the source states it, raw numbers included
 * @param emulated computes the emulated figure from the runs, the way the acceptance check does
 */
record ValidationFigure(String name, FigureUnit unit, double published, String asPublished, Band band,
                        ToDoubleFunction<RunResults> emulated) {
}
