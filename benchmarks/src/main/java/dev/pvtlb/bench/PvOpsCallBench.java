package dev.pvtlb.bench;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.PvOps;
import dev.pvtlb.pvops.TableFreePolicy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the boot-time patching costs per pv_ops call: the same op (table_free_policy, which
 * only reads a field of the backend) through the class Byte Buddy generated for the native
 * backend, against a plain Java interface call on a hand-written implementation, and a direct
 * call on the backend object. All three call sites see one receiver class, as the kernel's
 * patched call sites see one target.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar PvOpsCallBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PvOpsCallBench {
    /** The plain-interface alternative to generated pv_ops. */
    public interface TableFreeOps {
        TableFreePolicy tableFreePolicy();
    }

    /** A hand-written implementation, as a non-patching design would have. */
    public static final class HandWritten implements TableFreeOps {
        private final TableFreePolicy policy;

        HandWritten(TableFreePolicy p) {
            this.policy = p;
        }

        @Override
        public TableFreePolicy tableFreePolicy() {
            return policy;
        }
    }

    Kernel guest;
    PvOps generated;
    TableFreeOps iface;

    @Setup(Level.Trial)
    public void setUp() {
        guest = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(4).build());
        generated = guest.pvOps();
        iface = new HandWritten(generated.tableFreePolicy());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        guest.close();
    }

    @Benchmark
    public TableFreePolicy generatedPvOps() {
        return generated.tableFreePolicy();
    }

    @Benchmark
    public TableFreePolicy plainInterface() {
        return iface.tableFreePolicy();
    }
}
