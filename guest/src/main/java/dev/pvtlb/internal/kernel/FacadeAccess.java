package dev.pvtlb.internal.kernel;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.sim.Chooser;

/**
 * How the model's own packages cross the public facade without the facade naming an internal
 * type (the JDK's SharedSecrets pattern): {@link Guest} registers one of these when its class
 * is initialised.
 */
public interface FacadeAccess {
    /** Ties {@code guest} to its kernel, before the backend is attached (it may ask the facade). */
    void bind(Guest guest, Kernel kernel);

    /** The kernel behind {@code guest}. */
    Kernel kernel(Guest guest);

    /** Boots a guest whose choice points {@code chooser} answers (null: seeded random). */
    Guest boot(GuestConfig config, Chooser chooser);
}
