package dev.pvtlb.bench;

import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.explore.ScheduleRun;
import dev.pvtlb.explore.ScheduleRunner;
import dev.pvtlb.run.Scenario;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One explorer schedule of the {@code gup-fast-vs-free} catalogue scenario (munmap frees a page
 * table while the other CPU is in gup_fast, mm/gup.c): the guest reset, the workload set up and
 * run to its end, as {@code pvtlb bench}'s gup-fast-vs-free entry does it (native backend,
 * tableFree=immediate, seed 1, random strategy seed 2, exact quantum as the explorer sets it).
 * The guest is booted once and reset between schedules, as the explorer's runner does; each
 * invocation runs the next schedule of the strategy, so the score averages over schedules.
 * Native flushes by IPI, which waits for gup_fast's IRQs-off section, so no schedule finds a
 * hazard and none stops early.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar ExplorerScheduleBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ExplorerScheduleBench {
    RandomStrategy strategy;
    ScheduleRunner runner;
    int next;

    @Setup
    public void setUp() {
        Scenario s = Scenario.of("gup-fast-vs-free").backend("native").seed(1).set("tableFree", "immediate");
        strategy = new RandomStrategy(2);
        runner = new ScheduleRunner(s.defaultQuantum(0));
        // The first run boots the guest (and patches pv_ops): about a second, once. Every
        // invocation after it resets that guest, which is what the explorer pays per schedule.
        runner.run(strategy.schedule(0), 0);
        next = 0;
    }

    @TearDown
    public void tearDown() {
        runner.close();
    }

    @Benchmark
    public ScheduleRun schedule() {
        return runner.run(strategy.schedule(next++ & Integer.MAX_VALUE), 0);
    }
}
