package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.Mapping;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.Protection;
import java.io.IOException;

/**
 * The noise process of mprotect-noise ("a small application, which just calls mprotect()
 * continuously", Takao Indoh, LKML 2019): a process of its own, so on x86 its flushes reach only
 * the CPUs of its own address space, as in the model, where the noise has its own mm. Pinned to
 * one CPU, it writes {@code pages} pages and then flips them read-only and back while its
 * parent says so: a byte {@code 1} on standard input starts the flips, {@code 0} pauses them (the
 * process sleeps), the end of the input ends it. Started by {@link NoiseProcess}:
 * {@code MprotectLoop CPU PAGES BRIDGE [MODE]}. The controls that tell a flush's cost from a busy
 * neighbour CPU's: MODE {@code spin} computes instead of calling mprotect, {@code getpid} makes
 * system calls that flush nothing.
 */
public final class MprotectLoop {
    private static volatile boolean flipping;

    private MprotectLoop() {
    }

    public static void main(String[] args) throws IOException {
        int cpu = Integer.parseInt(args[0]);
        int pages = Integer.parseInt(args[1]);
        NativeOs os = NativeOs.select(args[2]);
        String mode = args.length > 3 ? args[3] : "mprotect";
        os.setAffinity(cpu);
        Thread watcher = Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                for (int b; (b = System.in.read()) >= 0; ) {
                    if (b == '1' || b == '0') {
                        flipping = b == '1';
                    }
                }
            } catch (IOException e) {
                // the parent is gone: stop as on EOF
            }
            Runtime.getRuntime().halt(0);
        });
        watcher.start();
        try (Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE)) {
            m.touchPages(0, pages);
            System.out.println("ready");
            System.out.flush();
            while (true) {
                if (!flipping) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                    continue;
                }
                switch (mode) {
                    case "spin" -> {
                        for (int i = 0; i < 10_000; i++) {
                            Thread.onSpinWait();
                        }
                    }
                    case "getpid" -> {
                        os.getpid();
                        os.getpid();
                    }
                    default -> {
                        os.protect(m, 0, m.byteSize(), Protection.READ);
                        os.protect(m, 0, m.byteSize(), Protection.READ_WRITE);
                    }
                }
            }
        }
    }
}
