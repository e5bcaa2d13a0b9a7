package dev.pvtlb.nativebridge;

/** Run by {@link NativeOsSelectTest} in a JVM started without --enable-native-access. */
public final class AutoSelectMain {
    private AutoSelectMain() {}

    public static void main(String[] args) {
        // Read first: in the default warn mode the JDK enables native access for the module
        // after the first restricted call it warned about, here JNA's System.load.
        boolean nativeAccess = NativeOs.class.getModule().isNativeAccessEnabled();
        NativeOs os = NativeOs.select("auto");
        boolean pidMatches = os.getpid() == ProcessHandle.current().pid();
        System.out.println("native access " + nativeAccess
                + ", auto -> " + os.name() + ", getpid " + (pidMatches ? "ok" : "wrong"));
    }
}
