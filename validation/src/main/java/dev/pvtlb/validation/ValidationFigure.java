package dev.pvtlb.validation;

import java.util.function.ToDoubleFunction;

/**
 * One published figure of an experiment and the emulated figure set against it.
 *
 * @param name what the figure is, in a few words
 * @param published the published figure in {@code unit} (derived from the source's raw numbers)
 * @param asPublished how the source states it, raw numbers included
 * @param emulated computes the emulated figure from the runs, the way the acceptance check does
 * @param detail a figure behind a pooled one (one thread placement alone, another {@code ops}), or a
 *        result published outside validation.md on the experiment's setup: shown and judged against
 *        its band, left out of the verdict, counted by {@code --sensitivity} (an experiment whose
 *        pass hangs on how its runs were pooled is not reproduced)
 */
public record ValidationFigure(String name, FigureUnit unit, double published, String asPublished, Band band,
                        ToDoubleFunction<RunResults> emulated, boolean detail) {
    /** A figure the verdict counts. */
    ValidationFigure(String name, FigureUnit unit, double published, String asPublished, Band band,
                     ToDoubleFunction<RunResults> emulated) {
        this(name, unit, published, asPublished, band, emulated, false);
    }

    /** The same figure computed by {@code from}, as a detail. */
    ValidationFigure detail(String detailName, ToDoubleFunction<RunResults> from) {
        return new ValidationFigure(detailName, unit, published, asPublished, band, from, true);
    }
}
