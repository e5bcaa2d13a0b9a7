package dev.pvtlb.cli;

/**
 * The pv_ops backend whose mechanism is the one this host's kernel uses for remote flushes, as
 * {@code pvtlb host probe} reports it (native-bridge's RemoteFlush). A method with no backend of
 * its own gets native, and says so.
 */
final class DetectedBackend {
    private DetectedBackend() {
    }

    static String of(String remoteFlush) {
        if (remoteFlush.contains("PVM_")) {
            return "pvm";
        }
        if (remoteFlush.contains("Hyper-V")) {
            return "hyperv";
        }
        if (remoteFlush.equals("kvm pv tlb flush")) {
            return "kvm";
        }
        return "native";
    }
}
