package dev.pvtlb.nativebridge.probe;

import java.nio.file.Path;

/**
 * Reads what pvtlb needs to know about the real host from files under a root: "/" for the
 * live machine, a directory of captured files in tests (see the fixtures' README). Only on
 * the live root does it also run {@code dmesg}.
 */
public final class HostProbe {
    private final HostFiles files;
    private final boolean liveRoot;

    /** The live machine. */
    public HostProbe() {
        this(Path.of("/"));
    }

    public HostProbe(Path root) {
        Path normalized = root.toAbsolutePath().normalize();
        this.files = new HostFiles(normalized);
        this.liveRoot = normalized.equals(normalized.getRoot());
    }

    public Path root() {
        return files.root();
    }

    public HostReport probe() {
        ProcCpuInfo cpuinfo = ProcCpuInfo.read(files);
        CpuTopology topology = CpuTopology.read(files, cpuinfo);
        KernelLog log = KernelLog.read(files, liveRoot);
        Hypervisor hypervisor = Hypervisor.detect(cpuinfo, files.firstLine("sys/hypervisor/type"), log);
        int logical = cpuinfo.count() > 0 ? cpuinfo.count() : topology.cpus().size();
        return new HostReport(
                cpuinfo.first("model name").orElse("unknown"),
                logical,
                topology,
                hypervisor,
                log.source(),
                RemoteFlush.detect(hypervisor, log),
                TlbCounters.read(files));
    }

    /** Just the counters, cheap enough to read before and after a benchmark. */
    public TlbCounters tlbCounters() {
        return TlbCounters.read(files);
    }
}
