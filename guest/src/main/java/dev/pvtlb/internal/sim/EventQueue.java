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
    /** Node i's time at 2i and sequence at 2i+1: a comparison reads one place, and a node's four children's keys share a cache line or two. */
    private long[] keys = new long[128];
    private Event[] events = new Event[64];
    private int size;
    private long nextSeq;
    /** Cancelled {@link Timer}s still in the heap (none of them at its root). */
    private int cancelled;
    /** Below this many cancelled timers the heap is never rebuilt to drop them. */
    private static final int COMPACT_AT = 64;

    public void add(Event e, long time) {
        add(e, time, nextSeq++);
    }

    /** A sequence number for an event held outside the heap, to be {@link #add(Event, long, long) added} later in its FIFO place. */
    long reserveSeq() {
        return nextSeq++;
    }

    /** Adds {@code e} with a sequence number from {@link #reserveSeq()}. */
    void add(Event e, long time, long seq) {
        if (size == events.length) {
            int n = size * 2;
            keys = Arrays.copyOf(keys, 2 * n);
            events = Arrays.copyOf(events, n);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (!less(time, seq, keys[2 * parent], keys[2 * parent + 1])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        keys[2 * i] = time;
        keys[2 * i + 1] = seq;
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
        return size == 0 ? Long.MAX_VALUE : keys[0];
    }

    /** Time of the second-earliest event (a child of the root); {@link Long#MAX_VALUE} if none. */
    public long peekTimeAfterHead() {
        long t = Long.MAX_VALUE;
        for (int c = 1, end = Math.min(size, 5); c < end; c++) {
            t = Math.min(t, keys[2 * c]);
        }
        return t;
    }

    /** Removes and returns the earliest event (never a cancelled timer). */
    public Event poll() {
        Event top = removeRoot();
        dropCancelledRoots();
        return top;
    }

    /**
     * Timer {@code t}, in the heap, was cancelled: it stays until it surfaces or the heap is
     * rebuilt, but the root is never a cancelled timer, so the head's time and every poll see only
     * live events. The order events leave in is that of their unique (time, sequence) keys, so
     * neither dropping nor rebuilding changes it.
     */
    void cancelled(Timer t) {
        cancelled++;
        if (events[0] == t) {
            dropCancelledRoots();
        } else if (cancelled >= COMPACT_AT && 2 * cancelled > size) {
            compact();
        }
    }

    /** Cancelled timers still in the heap. */
    int cancelledCount() {
        return cancelled;
    }

    private void dropCancelledRoots() {
        while (size > 0 && events[0] instanceof Timer t && t.done()) {
            removeRoot();
            cancelled--;
        }
    }

    /** Rebuilds the heap without its cancelled timers (Floyd's bottom-up heap construction). */
    private void compact() {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (!(events[i] instanceof Timer t && t.done())) {
                keys[2 * n] = keys[2 * i];
                keys[2 * n + 1] = keys[2 * i + 1];
                events[n] = events[i];
                n++;
            }
        }
        Arrays.fill(events, n, size, null);
        size = n;
        cancelled = 0;
        for (int i = (size - 2) >>> 2; size > 1 && i >= 0; i--) {
            siftDown(i, keys[2 * i], keys[2 * i + 1], events[i], size);
        }
    }

    private Event removeRoot() {
        Event top = events[0];
        int last = --size;
        long t = keys[2 * last];
        long s = keys[2 * last + 1];
        Event e = events[last];
        events[last] = null;
        if (last > 0) {
            siftDown(0, t, s, e, last);
        }
        return top;
    }

    /** Places (t, s, e) at node {@code i} or below it, in a heap of {@code n} nodes. */
    private void siftDown(int i, long t, long s, Event e, int n) {
        while (true) {
            int first = 4 * i + 1;
            if (first >= n) {
                break;
            }
            int child = first;
            for (int c = first + 1, end = Math.min(first + 4, n); c < end; c++) {
                if (less(keys[2 * c], keys[2 * c + 1], keys[2 * child], keys[2 * child + 1])) {
                    child = c;
                }
            }
            if (!less(keys[2 * child], keys[2 * child + 1], t, s)) {
                break;
            }
            move(child, i);
            i = child;
        }
        keys[2 * i] = t;
        keys[2 * i + 1] = s;
        events[i] = e;
    }

    public void clear() {
        Arrays.fill(events, 0, size, null);
        size = 0;
        nextSeq = 0;
        cancelled = 0;
    }

    private void move(int from, int to) {
        keys[2 * to] = keys[2 * from];
        keys[2 * to + 1] = keys[2 * from + 1];
        events[to] = events[from];
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}
