package dev.pvtlb.explore;

import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Chooser;
import java.util.ArrayList;
import java.util.List;

/** Answers the engine from a {@link ChoiceSource} and records every answer: the schedule. */
final class RecordingChooser implements Chooser {
    private final ChoiceSource source;
    private final List<Choice> taken = new ArrayList<>();

    RecordingChooser(ChoiceSource source) {
        this.source = source;
    }

    @Override
    public int choose(ChoicePoint point, int options) {
        int c = source.choose(point, options, taken.size());
        if (c < 0 || c >= options) {
            c = Math.floorMod(c, options);
        }
        taken.add(new Choice(point, options, c));
        return c;
    }

    @Override
    public boolean exploring() {
        return true;
    }

    List<Choice> taken() {
        return taken;
    }
}
