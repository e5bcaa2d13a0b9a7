package dev.pvtlb.hazard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The last steps of a run in readable form, one line each: virtual time, CPU, and the kernel
 * function (or user operation) the step belongs to, interleaved with trace events (flushes,
 * pv_ops calls, hazards). Kept only when asked (replay), as it costs a string per step.
 */
public final class StepLog {
    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private String last;
    private int repeats;

    public StepLog(int capacity) {
        this.capacity = capacity;
    }

    public void add(long time, int cpu, String what) {
        String key = "cpu" + cpu + " " + what;
        if (key.equals(last)) {
            // A spin (csd_lock_wait, a user loop) repeats one line: count it instead.
            repeats++;
            return;
        }
        flushRepeats();
        last = key;
        push(String.format("%12d  %s", time, key));
    }

    private void flushRepeats() {
        if (repeats > 0) {
            push(String.format("%12s  (previous line %d more times)", "", repeats));
            repeats = 0;
        }
    }

    private void push(String line) {
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    public List<String> lines() {
        flushRepeats();
        return new ArrayList<>(lines);
    }
}
