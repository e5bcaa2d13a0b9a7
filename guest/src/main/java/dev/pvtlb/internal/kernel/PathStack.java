package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;
import java.util.Arrays;

/**
 * The kernel paths a CPU is running, innermost on top: a path calls another (an interrupt, a
 * nested function with steps of its own) by pushing it, and returns by popping itself. The
 * CPU runs one step of the top path at a time.
 */
final class PathStack {
    private KernelPath[] stack = new KernelPath[16];
    private int depth;

    /** Starts {@code path}: it runs next, then returns to the caller. */
    void push(KernelPath path) {
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
        }
        path.restart();
        stack[depth++] = path;
    }

    /** Ends the path on top. */
    void pop() {
        stack[--depth] = null;
    }

    /** The path running, or null when none is. */
    KernelPath top() {
        return depth == 0 ? null : stack[depth - 1];
    }

    boolean isEmpty() {
        return depth == 0;
    }

    /** The paths, outermost first, as "do_idle > user:t3 > handle_mm_fault". */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            sb.append(i == 0 ? "" : " > ").append(stack[i].describe());
        }
        return sb.toString();
    }

    void clear() {
        Arrays.fill(stack, null);
        depth = 0;
    }
}
