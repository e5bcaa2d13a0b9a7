package dev.pvtlb.explore;

import java.util.ArrayList;
import java.util.List;

/**
 * Every schedule that departs from the default answer (0) at no more than {@code bound}
 * choice points, depth first (preemption-bounded search, as CHESS bounds preemptions). Each
 * run replays the planned prefix and answers 0 after it; the next prefix bumps the deepest
 * choice that can still be bumped within the bound. Meant for tiny scenarios.
 */
public final class ExhaustiveStrategy implements Strategy {
    private final int bound;
    private List<Choice> prefix = List.of();
    private boolean done;

    public ExhaustiveStrategy(int bound) {
        if (bound < 0) {
            throw new IllegalArgumentException("exhaustive bound must be >= 0, got " + bound);
        }
        this.bound = bound;
    }

    @Override
    public ChoiceSource schedule(int index) {
        List<Choice> p = prefix;
        return (point, options, i) -> i < p.size() ? Math.min(p.get(i).taken(), options - 1) : 0;
    }

    @Override
    public void finished(List<Choice> taken) {
        int deviations = 0;
        int[] before = new int[taken.size() + 1];
        for (int i = 0; i < taken.size(); i++) {
            before[i] = deviations;
            if (taken.get(i).taken() != 0) {
                deviations++;
            }
        }
        for (int i = taken.size() - 1; i >= 0; i--) {
            Choice c = taken.get(i);
            if (c.taken() + 1 < c.options() && before[i] + 1 <= bound) {
                List<Choice> next = new ArrayList<>(taken.subList(0, i));
                next.add(new Choice(c.point(), c.options(), c.taken() + 1));
                prefix = next;
                return;
            }
        }
        done = true;
    }

    @Override
    public boolean exhausted() {
        return done;
    }

    @Override
    public String name() {
        return "exhaustive";
    }
}
