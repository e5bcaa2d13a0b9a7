package dev.pvtlb.bench;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.internal.sim.EventQueue;
import dev.pvtlb.internal.sim.SeededChooser;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The discrete-event core every model step goes through, at a steady queue depth ({@link #depth}
 * pending events: 16 is a small guest, 1024 a flush storm on many vCPUs). No kernel function:
 * this is the simulator's own overhead under each modelled step.
 * <ul>
 * <li>{@link #hold}: the classic priority-queue "hold" operation: poll the earliest event and
 *     schedule it again a pseudo-random 1..1000 ns later, as a CPU re-queues itself after a step.
 * <li>{@link #engineStep}: one {@link Engine#run} step of events that re-schedule themselves the
 *     same way: the poll, the tie check (equal times ask the chooser) and the dispatch.
 * </ul>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar EventQueueBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class EventQueueBench {
    /** Precomputed delays, so the benchmark times the queue and not a random generator. */
    private static final int DELAYS = 4096;

    @Param({"16", "1024"})
    public int depth;

    EventQueue queue;
    Engine engine;
    private final long[] delays = new long[DELAYS];
    private int next;
    private Event requeue;

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < DELAYS; i++) {
            delays[i] = 1 + r.nextInt(1000);
        }
        queue = new EventQueue();
        engine = new Engine(new SeededChooser(42), 0);
        // Each engine event re-schedules itself, as a CPU does after each step.
        requeue = e -> e.at(e.now() + delay(), requeue);
        for (int i = 0; i < depth; i++) {
            queue.add(e -> { }, delay());
            engine.at(delay(), requeue);
        }
    }

    private long delay() {
        return delays[next++ & (DELAYS - 1)];
    }

    /** Polls the earliest event and re-schedules it; returns the time it was due. */
    @Benchmark
    public long hold() {
        long t = queue.peekTime();
        queue.add(queue.poll(), t + delay());
        return t;
    }

    /** Runs one engine step; returns the engine's clock after it. */
    @Benchmark
    public long engineStep() {
        engine.run(Long.MAX_VALUE, 1);
        return engine.now();
    }
}
