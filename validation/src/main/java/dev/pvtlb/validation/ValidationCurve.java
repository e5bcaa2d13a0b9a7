package dev.pvtlb.validation;

import java.util.function.ToDoubleBiFunction;

/**
 * A figure published per value of a parameter (concurrent-flush: the change at each thread
 * count), shown beside the emulated one in the text and as a line chart in the HTML page; the
 * verdict comes from the experiment's figures, not from here.
 */
public record ValidationCurve(String name, String xLabel, double[] x, double[] published, FigureUnit unit,
                       ToDoubleBiFunction<RunResults, Double> emulated) {
    double[] emulatedAll(RunResults runs) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = emulated.applyAsDouble(runs, x[i]);
        }
        return y;
    }
}
