package dev.pvtlb.nativebridge;

import java.util.stream.Stream;

/** Every NativeOs backend, for parameterized tests: each must keep the same contract. */
final class Backends {
    private Backends() {}

    static Stream<NativeOs> all() {
        return Stream.of(NativeOs.select("ffm"), NativeOs.select("jna"));
    }

    /** Runs {@code body} on a fresh thread, so pinning it leaves the test runner's thread alone. */
    static void onFreshThread(Runnable body) throws Throwable {
        Throwable[] thrown = new Throwable[1];
        Thread t = Thread.ofPlatform().unstarted(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        t.start();
        t.join();
        if (thrown[0] != null) {
            throw thrown[0];
        }
    }
}
