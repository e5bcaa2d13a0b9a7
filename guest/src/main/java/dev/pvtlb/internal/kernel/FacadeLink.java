package dev.pvtlb.internal.kernel;

/**
 * Where the model finds the {@link FacadeAccess} that {@code dev.pvtlb.Guest} registers when its
 * class is initialised (set once; asking before then initialises {@code Guest}).
 */
final class FacadeLink {
    private static volatile FacadeAccess access;

    private FacadeLink() {
    }

    static void set(FacadeAccess a) {
        if (access != null) {
            throw new IllegalStateException("facade access set twice");
        }
        access = a;
    }

    static FacadeAccess get() {
        FacadeAccess a = access;
        if (a == null) {
            try { // initialising Guest registers it
                Class.forName("dev.pvtlb.Guest", true, FacadeLink.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = access;
        }
        return a;
    }
}
