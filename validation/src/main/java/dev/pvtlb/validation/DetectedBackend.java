package dev.pvtlb.validation;

/**
 * The pv_ops backend whose mechanism is the one this host's kernel uses for remote flushes, as
 * {@code pvtlb host probe} reports it (native-bridge's RemoteFlush). A method with no backend of
 * its own gets native, and says so.
 */
public final class DetectedBackend {
    private DetectedBackend() {
    }

    /** The backend for a remote-flush method as {@code HostReport.remoteFlush().method()} names it. */
    public static String of(String remoteFlush) {
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
