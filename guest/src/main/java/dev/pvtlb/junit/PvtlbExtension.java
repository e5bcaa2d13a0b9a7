package dev.pvtlb.junit;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.profile.Profile;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension for a user's own tests: a {@link Guest} parameter annotated with
 * {@link PvtlbGuest} is booted as the annotation says and closed when the test ends (through
 * the extension store, so a failing test still releases the guest's memory).
 * Use with {@code @ExtendWith(PvtlbExtension.class)}.
 */
// JUnit's own types: this class is a JUnit extension, and JUnit is a static (optional) dependency.
@SuppressWarnings("exports")
public final class PvtlbExtension implements ParameterResolver {
    /** Made by JUnit from {@code @ExtendWith(PvtlbExtension.class)}. */
    public PvtlbExtension() {}

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PvtlbExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        return p.getParameter().getType() == Guest.class && p.isAnnotated(PvtlbGuest.class);
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        PvtlbGuest a = p.findAnnotation(PvtlbGuest.class).orElseThrow();
        GuestConfig.Builder b = GuestConfig.builder().cpus(a.cpus()).seed(a.seed()).backend(a.backend())
                .tracePvOps(a.tracePvOps()).speculativeWalks(a.speculation());
        if (a.memoryMiB() != 0) {
            b.memoryMiB(a.memoryMiB());
        }
        if (!a.topology().isEmpty()) {
            b.topology(Topology.parse(a.topology()));
        }
        if (a.pcpus() != 0 || a.vms() != 1) {
            b.pcpus(a.pcpus()).vms(a.vms());
        }
        if (!a.profile().isEmpty()) {
            b.profile(Profile.load(a.profile()));
        }
        for (String kv : a.knobs()) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ParameterResolutionException("@PvtlbGuest knob must be name=value, got '" + kv + "'");
            }
            b.knob(kv.substring(0, eq), kv.substring(eq + 1));
        }
        Guest g = Guest.boot(b.build());
        c.getStore(NS).put("guest-" + p.getIndex(), new ClosedAtEnd(g));
        return g;
    }

    /**
     * Closes the guest when the test's store is closed. JUnit before 5.13 closes only values
     * that implement CloseableResource (5.13 deprecated it for AutoCloseable, but still honours
     * it), so this works on every JUnit 5; it is not AutoCloseable, so no JUnit closes it twice.
     */
    @SuppressWarnings("deprecation")
    private record ClosedAtEnd(Guest guest) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            guest.close();
        }
    }
}
