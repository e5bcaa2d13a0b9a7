package dev.pvtlb.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** What a copy of a model's objects keeps: identity, cycles, captured values, sentinels; and what it refuses. */
class GraphCopyTest {
    /** A node of a mutable graph, with a hash code over a field, as a model's keys may have. */
    static final class Node {
        static final Node NONE = new Node(-1);
        int id;
        Node next;
        final List<Node> out = new ArrayList<>();
        LongSupplier clock;

        Node(int id) {
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Node n && n.id == id;
        }

        @Override
        public int hashCode() {
            return Integer.hashCode(id);
        }
    }

    record Pair(Node a, long weight) {}

    static final class Holder {
        final Map<Node, Pair> byNode = new HashMap<>();
        final ArrayDeque<Node> queue = new ArrayDeque<>();
        Node sentinel = Node.NONE;
        long[] words = {1, 2, 3};
        long[] sameWords = words;
        Node[] nodes;
    }

    @Test
    void aCopyKeepsIdentityCyclesAndCapturesAndSharesOnlyWhatCannotChange() {
        Holder h = new Holder();
        Node a = new Node(1);
        Node b = new Node(2);
        a.next = b;
        b.next = a; // a cycle
        a.out.add(b);
        long[] ticks = {40};
        a.clock = () -> ticks[0] + a.id; // a lambda capturing an array and the node itself
        h.byNode.put(a, new Pair(b, 7));
        h.queue.add(b);
        h.nodes = new Node[] {a, b, a};

        Holder c = GraphCopy.branch(h, List.of()).root();
        Node ca = c.nodes[0];
        Node cb = c.nodes[1];
        assertNotSame(a, ca);
        assertSame(ca, c.nodes[2]);
        assertSame(cb, ca.next);
        assertSame(ca, cb.next);
        assertSame(cb, ca.out.get(0));
        assertSame(cb, c.queue.peek());
        assertSame(cb, c.byNode.get(ca).a(), "a hash map rebuilt once its keys' fields were filled");
        assertEquals(7, c.byNode.get(ca).weight());
        assertSame(Node.NONE, c.sentinel, "a static sentinel stays the one object identity tests compare with");
        assertNotSame(h.words, c.words);
        assertSame(c.words, c.sameWords);
        assertEquals(41, ca.clock.getAsLong());
        ca.id = 5;
        ticks[0] = 1000;
        assertEquals(45, ca.clock.getAsLong(), "the copied lambda reads the copied node and array, not the originals");
        assertEquals(1001, a.clock.getAsLong());
    }

    @Test
    void sharedObjectsAreNotCopied() {
        Holder h = new Holder();
        Node shared = new Node(9);
        h.nodes = new Node[] {shared};
        Holder c = GraphCopy.branch(h, List.of(shared)).root();
        assertSame(shared, c.nodes[0]);
    }

    @Test
    void aJdkClassTheCopyDoesNotKnowIsRefused() {
        Holder h = new Holder();
        h.byNode.put(new Node(3), null);
        Object[] box = {h, new java.util.concurrent.ConcurrentLinkedQueue<Node>()};
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> GraphCopy.branch(box, List.of()));
        assertTrue(e.getMessage().contains("java.util.concurrent.ConcurrentLinkedQueue"), e.getMessage());
    }
}
