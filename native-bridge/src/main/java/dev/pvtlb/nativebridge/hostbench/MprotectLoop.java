package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.Mapping;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.Protection;
import java.io.IOException;

/**
 * The noise process of mprotect-noise ("a small application, which just calls mprotect()
 * continuously", Takao Indoh, LKML 2019): a process of its own, so on x86 its flushes reach only
 * the CPUs of its own address space, as in the model, where the noise has its own mm. Pinned to
 * one CPU, it writes {@code pages} pages and then flips them read-only and back until its
 * standard input closes. Started by {@link NoiseProcess}: {@code MprotectLoop CPU PAGES BRIDGE}.
 */
public final class MprotectLoop {
    private MprotectLoop() {
    }

    public static void main(String[] args) throws IOException {
        int cpu = Integer.parseInt(args[0]);
        int pages = Integer.parseInt(args[1]);
        NativeOs os = NativeOs.select(args[2]);
        os.setAffinity(cpu);
        Thread watcher = Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                while (System.in.read() >= 0) {
                    // drain until the parent closes the pipe
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
                os.protect(m, 0, m.byteSize(), Protection.READ);
                os.protect(m, 0, m.byteSize(), Protection.READ_WRITE);
            }
        }
    }
}
