package dev.pvtlb.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.model.ChoicePoint;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The engine runs events in the order of the plain rule it documents, whatever shortcuts it
 * takes (the held next event, the tie bucket): the earliest time first; among the events due at
 * one instant, the chooser's pick from them in FIFO order, asked only when there are two or
 * more. A reference that applies the rule to a list is run beside it on the same programs:
 * events that schedule others at their own instant (ties), just after it, or later.
 */
class EngineOrderProperties {
    /** Each event, when fired, schedules children at these offsets from now (one list per event id, reused round-robin). */
    private record Program(List<List<Integer>> children, long chooserSalt) {
        List<Integer> childrenOf(int id) {
            return children.get(id % children.size());
        }

        /** The chooser both engines ask: a fixed function of how often it was asked and how many events tie. */
        int choose(int asked, int options) {
            long z = (asked + 1) * 0x9E3779B97F4A7C15L ^ chooserSalt;
            return (int) Math.floorMod(z ^ (z >>> 29), (long) options);
        }
    }

    private static final int MAX_EVENTS = 400;

    @Property(tries = 300)
    void theEngineRunsEventsInTheReferenceOrder(
            @ForAll @Size(min = 1, max = 12) List<@Size(max = 3) List<@IntRange(min = 0, max = 4) Integer>> children,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 3) Integer> starts,
            @ForAll long salt) {
        Program p = new Program(children, salt);
        assertEquals(reference(p, starts), engine(p, starts));
    }

    /** Fired events as "id@time", by the engine. */
    private static List<String> engine(Program p, List<Integer> starts) {
        int[] asked = {0};
        Engine e = new Engine((ChoicePoint point, int options) -> p.choose(asked[0]++, options), 0);
        List<String> log = new ArrayList<>();
        int[] nextId = {0};
        class Node implements Event {
            final int id = nextId[0]++;

            @Override
            public void fire(Engine engine) {
                log.add(id + "@" + engine.now());
                for (int offset : p.childrenOf(id)) {
                    if (nextId[0] < MAX_EVENTS) {
                        engine.at(engine.now() + offset, new Node());
                    }
                }
            }
        }
        for (int t : starts) {
            e.at(t, new Node());
        }
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        return log;
    }

    /** Fired events as "id@time", by the rule applied to a list in insertion order. */
    private static List<String> reference(Program p, List<Integer> starts) {
        record Pending(int id, long time) { }
        List<Pending> pending = new ArrayList<>();
        int nextId = 0;
        for (int t : starts) {
            pending.add(new Pending(nextId++, t));
        }
        List<String> log = new ArrayList<>();
        int asked = 0;
        while (!pending.isEmpty()) {
            long now = pending.stream().mapToLong(Pending::time).min().orElseThrow();
            List<Pending> due = pending.stream().filter(x -> x.time() == now).toList(); // FIFO: insertion order
            Pending chosen = due.size() == 1 ? due.get(0) : due.get(p.choose(asked++, due.size()));
            pending.remove(chosen);
            log.add(chosen.id() + "@" + now);
            for (int offset : p.childrenOf(chosen.id())) {
                if (nextId < MAX_EVENTS) {
                    pending.add(new Pending(nextId++, now + offset));
                }
            }
        }
        return log;
    }
}
