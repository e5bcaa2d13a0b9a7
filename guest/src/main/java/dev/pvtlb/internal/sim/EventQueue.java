package dev.pvtlb.internal.sim;

import java.util.Arrays;

/**
 * Four-ary min-heap of events ordered by (time, insertion sequence): half the depth of a
 * binary heap, and a node's children share a cache line or two, which is what a poll costs
 * with a thousand vCPUs' events pending. Parallel primitive arrays
 * keep the hot path free of per-event allocation; the sequence makes equal times FIFO, so the
 * only source of reordering is the {@link Chooser}, never the heap's shape.
 */
public final class EventQueue {
    private long[] times = new long[64];
    private long[] seqs = new long[64];
    private Event[] events = new Event[64];
    private int size;
    private long nextSeq;

    public void add(Event e, long time) {
        add(e, time, nextSeq++);
    }

    /** A sequence number for an event held outside the heap, to be {@link #add(Event, long, long) added} later in its FIFO place. */
    long reserveSeq() {
        return nextSeq++;
    }

    /** Adds {@code e} with a sequence number from {@link #reserveSeq()}. */
    void add(Event e, long time, long seq) {
        if (size == times.length) {
            int n = size * 2;
            times = Arrays.copyOf(times, n);
            seqs = Arrays.copyOf(seqs, n);
            events = Arrays.copyOf(events, n);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (!less(time, seq, times[parent], seqs[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        times[i] = time;
        seqs[i] = seq;
        events[i] = e;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Time of the earliest event; {@link Long#MAX_VALUE} when empty. */
    public long peekTime() {
        return size == 0 ? Long.MAX_VALUE : times[0];
    }

    /** Time of the second-earliest event (a child of the root); {@link Long#MAX_VALUE} if none. */
    public long peekTimeAfterHead() {
        long t = Long.MAX_VALUE;
        for (int c = 1, end = Math.min(size, 5); c < end; c++) {
            t = Math.min(t, times[c]);
        }
        return t;
    }

    /** Removes and returns the earliest event. */
    public Event poll() {
        Event top = events[0];
        int last = --size;
        long t = times[last];
        long s = seqs[last];
        Event e = events[last];
        events[last] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int first = 4 * i + 1;
                if (first >= last) {
                    break;
                }
                int child = first;
                for (int c = first + 1, end = Math.min(first + 4, last); c < end; c++) {
                    if (less(times[c], seqs[c], times[child], seqs[child])) {
                        child = c;
                    }
                }
                if (!less(times[child], seqs[child], t, s)) {
                    break;
                }
                move(child, i);
                i = child;
            }
            times[i] = t;
            seqs[i] = s;
            events[i] = e;
        }
        return top;
    }

    public void clear() {
        Arrays.fill(events, 0, size, null);
        size = 0;
        nextSeq = 0;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        seqs[to] = seqs[from];
        events[to] = events[from];
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
