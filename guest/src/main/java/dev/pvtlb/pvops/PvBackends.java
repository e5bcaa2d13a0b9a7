package dev.pvtlb.pvops;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.knob.KnobSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The registered backends: found once with ServiceLoader, by name, in name order. A provider
 * that cannot be loaded (a class that is missing, not public, or has no public no-argument
 * constructor) is left out and remembered, so that one bad jar on the class path costs only
 * its own backend: every other one still runs, and asking for a missing name says what failed.
 * So is a services file named after the wrong type, which ServiceLoader itself passes over.
 */
public final class PvBackends {
    private static volatile Map<String, PvBackend> all;
    private static volatile List<String> broken = List.of();

    private PvBackends() {}

    public static Map<String, PvBackend> all() {
        Map<String, PvBackend> m = all;
        if (m == null) {
            synchronized (PvBackends.class) {
                if (all == null) {
                    List<String> failed = new ArrayList<>();
                    ClassLoader loader = PvBackends.class.getClassLoader();
                    all = load(ServiceLoader.load(PvBackend.class, loader), failed);
                    failed.addAll(misnamedServiceFiles(loader));
                    broken = List.copyOf(failed);
                }
                m = all;
            }
        }
        return m;
    }

    /**
     * Loads the backends of the jar {@code jar} (its {@code META-INF/services/dev.pvtlb.pvops.PvBackend})
     * beside the registered ones, for a design given on the command line rather than on the class
     * path, and returns their names. A file that is no jar, a jar without a backend, a provider that
     * cannot be loaded or a name already taken by another class is bad input, in one line.
     */
    public static List<String> register(java.nio.file.Path jar) {
        if (!java.nio.file.Files.isRegularFile(jar)) {
            throw new ModelException("backend jar " + jar + ": no such file");
        }
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(jar.toFile())) {
            if (z.getEntry("META-INF/services/" + PvBackend.class.getName()) == null) {
                throw new ModelException("backend jar " + jar + ": registers no pv_ops backend (no META-INF/services/"
                        + PvBackend.class.getName() + ")");
            }
        } catch (java.io.IOException e) {
            throw new ModelException("backend jar " + jar + ": not a jar (" + ModelException.firstLine(e.getMessage()) + ")");
        }
        java.net.URLClassLoader loader;
        try {
            loader = new java.net.URLClassLoader(new java.net.URL[] {jar.toUri().toURL()}, PvBackends.class.getClassLoader());
        } catch (java.net.MalformedURLException e) {
            throw new ModelException("backend jar " + jar + ": " + ModelException.firstLine(e.getMessage()));
        }
        // Only the jar's own providers: the loader also sees, through its parent, those on the class path.
        List<String> failed = new ArrayList<>();
        List<PvBackend> own = new ArrayList<>();
        Iterator<ServiceLoader.Provider<PvBackend>> it = ServiceLoader.load(PvBackend.class, loader).stream().iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                ServiceLoader.Provider<PvBackend> p = it.next();
                if (p.type().getClassLoader() == loader) {
                    own.add(p.get());
                }
            } catch (ServiceConfigurationError e) {
                failed.add(ModelException.firstLine(e.getMessage()));
            }
        }
        Map<String, PvBackend> found = load(own, failed);
        if (!failed.isEmpty()) {
            throw new ModelException("backend jar " + jar + ": " + failed.get(0));
        }
        synchronized (PvBackends.class) {
            Map<String, PvBackend> merged = new TreeMap<>(all());
            for (PvBackend b : found.values()) {
                PvBackend prev = merged.get(b.name());
                if (prev != null && !prev.getClass().getName().equals(b.getClass().getName())) {
                    throw new ModelException("backend jar " + jar + ": its backend '" + b.name() + "' (" + b.getClass().getName()
                            + ") has the name of " + prev.getClass().getName());
                }
                merged.putIfAbsent(b.name(), b);
            }
            if (found.isEmpty()) {
                throw new ModelException("backend jar " + jar + ": its services file names no loadable backend");
            }
            all = Collections.unmodifiableMap(merged);
            return found.keySet().stream().toList();
        }
    }

    /** The providers ServiceLoader could not load, each as its one-line reason. */
    public static List<String> broken() {
        all();
        return broken;
    }

    static Map<String, PvBackend> load(Iterable<PvBackend> found, List<String> failed) {
        Map<String, PvBackend> m = new TreeMap<>();
        Iterator<PvBackend> it = found.iterator();
        while (true) {
            PvBackend b;
            try {
                if (!it.hasNext()) {
                    break;
                }
                b = it.next();
            } catch (ServiceConfigurationError e) {
                // ServiceLoader goes on with the next provider after an error (best effort).
                failed.add(ModelException.firstLine(e.getMessage()));
                continue;
            }
            PvBackend prev = m.putIfAbsent(b.name(), b);
            if (prev != null && prev.getClass() != b.getClass()) {
                throw new ModelException("two backends are named '" + b.name() + "': " + prev.getClass().getName()
                        + " and " + b.getClass().getName());
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /** Service files named after a type that is not the service, which ServiceLoader never reads. */
    private static final List<String> MISNAMED = List.of(BackendProvider.class.getName(), PvOps.class.getName());

    /**
     * A services file named after {@link BackendProvider} (the base class) or {@link PvOps}
     * instead of {@link PvBackend}, the service, is ignored by ServiceLoader without a word:
     * one line for each found, naming where it is and what to rename it to.
     */
    static List<String> misnamedServiceFiles(ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (String type : MISNAMED) {
            try {
                for (java.net.URL u : Collections.list(loader.getResources("META-INF/services/" + type))) {
                    found.add(u + ": ignored, ServiceLoader reads META-INF/services/" + PvBackend.class.getName()
                            + " (rename the file)");
                }
            } catch (java.io.IOException e) {
                found.add("META-INF/services/" + type + ": cannot be listed (" + ModelException.firstLine(e.getMessage()) + ")");
            }
        }
        return found;
    }

    public static PvBackend byName(String name) {
        PvBackend b = all().get(name);
        if (b == null) {
            throw new ModelException("unknown backend '" + name + "' (available: " + String.join(", ", all().keySet()) + ")"
                    + (broken().isEmpty() ? "" : "; providers that failed to load: " + String.join("; ", broken())));
        }
        return b;
    }

    /** The backend that declares knob {@code name}, or null. */
    public static PvBackend ownerOf(String knob) {
        for (PvBackend b : all().values()) {
            for (KnobSpec k : b.knobs()) {
                if (k.name().equals(knob)) {
                    return b;
                }
            }
        }
        return null;
    }
}
