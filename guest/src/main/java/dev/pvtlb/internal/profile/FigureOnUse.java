package dev.pvtlb.internal.profile;

import dev.pvtlb.profile.Profile;

/**
 * A profile figure that only one mechanism charges (a DAX fault, a page-table free, the page
 * allocator's locks), read from the profile the first time that mechanism runs rather than at
 * boot. The profile then records it as read only by a run that used it
 * ({@link Profile#keysRead()}), so {@code validate --sensitivity} does not run the ends of a
 * figure through runs whose every byte it cannot change. One guest's, used by its one thread.
 */
public final class FigureOnUse {
    private static final long UNREAD = -1;

    private final Profile profile;
    private final String key;
    private long ns = UNREAD;

    FigureOnUse(Profile profile, String key) {
        this.profile = profile;
        this.key = key;
    }

    /** The figure in nanoseconds ({@link Profile#ns}), read at the first call. */
    public long ns() {
        long v = ns;
        if (v == UNREAD) {
            v = profile.ns(key);
            ns = v;
        }
        return v;
    }

    /**
     * {@code n} times the figure, 0 without reading it when {@code n} is 0: a mechanism entered with
     * nothing to do (a zap that frees no table) has not used the figure.
     */
    public long times(long n) {
        return n == 0 ? 0 : n * ns();
    }
}
