package dev.pvtlb.cli;

import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import java.util.ArrayList;
import java.util.List;

/**
 * What a design is set beside in {@code pvtlb assess}: native, the bare-metal baseline, first,
 * then every shipped design of the same kind (run as a VM on the host model, or on bare
 * metal), in name order. A shipped design is one of pvtlb's own (its class in the project's
 * model packages); a design from a user's jar is never a peer of another.
 */
final class DesignPeers {
    private DesignPeers() {}

    static List<String> of(PvBackend design) {
        List<String> peers = new ArrayList<>();
        if (!design.name().equals("native")) {
            peers.add("native");
        }
        for (PvBackend b : PvBackends.all().values()) {
            if (b != design && !b.name().equals("native") && shipped(b) && b.virtualized() == design.virtualized()) {
                peers.add(b.name());
            }
        }
        return List.copyOf(peers);
    }

    static boolean shipped(PvBackend b) {
        return b.getClass().getName().startsWith("dev.pvtlb.internal.");
    }
}
