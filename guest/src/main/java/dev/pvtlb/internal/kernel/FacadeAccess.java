package dev.pvtlb.internal.kernel;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.pvops.BackendContext;

/**
 * How the model's own packages cross the public facade without the facade naming an internal
 * type (the JDK's SharedSecrets pattern): {@code dev.pvtlb.Guest} registers one of these when its class
 * is initialised. The facade is typed {@code Object} here: the model does not name the API
 * above it.
 */
public interface FacadeAccess {
    /** Ties {@code guest} to its kernel, before the backend is attached (it may ask the facade). */
    void bind(Object guest, Kernel kernel);

    /** The kernel behind {@code guest}. */
    Kernel kernel(Object guest);

    /** Boots a guest whose choice points {@code chooser} answers (null: seeded random). */
    Object boot(GuestConfig config, Chooser chooser);

    /** Boots co-guest {@code vm} of {@code primary}'s host (Kernel.bootCoGuest). */
    Object bootCoGuest(GuestConfig config, Kernel primary, int vm);

    /**
     * What {@code kernel}'s backend is attached with: built above the kernel, beside the host
     * model it hands out, so that the kernel does not name the host model that is built on it.
     */
    BackendContext backendContext(Kernel kernel);
}
