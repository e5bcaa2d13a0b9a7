package dev.pvtlb.internal.sim;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deep copy of a model's object graph, identity kept (two references to one object in the
 * original are two references to one copy), for branching a run: the explorer runs a window of
 * a workload again and again from one warmed state instead of from boot, as SMARTS-style
 * checkpointed simulation and the kernel's own CRIU do for a process.
 *
 * <p>What is copied how: the model's classes field by field (allocated without running a
 * constructor, as deserialization does); records through their canonical constructor; lambdas
 * through the constructor of their hidden class, with their captured values copied; arrays
 * element by element. The JDK's collections, whose fields a module may not read, are rebuilt
 * through their public API; hash-based ones are filled after every other object is complete,
 * since their elements' hash codes may read fields. Values that cannot change (strings, boxes,
 * enums, classes, and final classes and records whose fields are all final values of such kinds)
 * are shared, as is everything the caller names. A JDK class not known here is refused
 * ({@link UnsupportedOperationException}) rather than shared by accident.
 */
public final class GraphCopy {
    /**
     * A model object that holds no reference to another model object and makes its own branch copy,
     * cheaper than field by field: it may share its state with the copy and journal the copy's
     * writes, handing {@code onRollback} what undoes them (a cache's megabytes of tags).
     */
    public interface SelfCopying {
        /** The branch's copy; after {@code onRollback}'s action has run, this object is as it was. */
        Object copyForBranch(java.util.function.Consumer<Runnable> onRollback);
    }

    /** A branch's copy of a graph and what puts the original's shared state back when the branch ends. */
    public record Copy<T>(T root, List<Runnable> rollbacks) {
        /** Undoes the branch's writes to state it shared with the original (each action once, newest first). */
        public void rollBack() {
            for (int i = rollbacks.size() - 1; i >= 0; i--) {
                rollbacks.get(i).run();
            }
        }
    }

    private final List<Runnable> rollbacks = new ArrayList<>();

    private final IdentityHashMap<Object, Object> copies;
    /** Objects in the last copy made: the next one's table is sized for as many, so it never grows while copying. */
    private static volatile int lastSize = 64;
    /** Objects whose fields are yet to be filled: an explicit stack, so a long chain cannot overflow the thread's. */
    private final ArrayDeque<Object[]> pending = new ArrayDeque<>();
    /** Hash- and order-based collections to fill once every object is whole: {copy, original}. */
    private final List<Object[]> deferred = new ArrayList<>();

    private GraphCopy(Collection<?> shared) {
        copies = new IdentityHashMap<>(lastSize + lastSize / 4);
        for (Object o : shared) {
            if (o != null) {
                copies.put(o, o);
            }
        }
    }

    /**
     * A branch copy of {@code root}: each object of {@code shared} (and what only it reaches) is the
     * same object in the copy; {@link SelfCopying} objects may share state with the copy until
     * {@link Copy#rollBack}, which the caller runs when it is done with the copy.
     */
    public static <T> Copy<T> branch(T root, Collection<?> shared) {
        GraphCopy g = new GraphCopy(shared);
        Object c = g.of(root);
        g.drain();
        lastSize = g.copies.size();
        @SuppressWarnings("unchecked") // of() returns an object of the same class as its argument
        T t = (T) c;
        return new Copy<>(t, List.copyOf(g.rollbacks));
    }

    /** Fills every object made, then the hash- and tree-based collections and what their elements bring in. */
    private void drain() {
        fillPending();
        for (Object[] d : deferred) {
            fillDeferred(d[0], d[1]);
            fillPending();
        }
    }

    private void fillPending() {
        while (!pending.isEmpty()) {
            Object[] p = pending.pop();
            fill(p[0], p[1]);
        }
    }

    /** The copy of {@code o}: made now, its fields filled later (objects, arrays) or at once (records, lambdas, collections). */
    private Object of(Object o) {
        if (o == null) {
            return null;
        }
        Object done = copies.get(o);
        if (done != null) {
            return done;
        }
        Class<?> c = o.getClass();
        if (SHAREABLE.get(c)) {
            return o;
        }
        Object copy;
        if (c.isArray()) {
            if (c.getComponentType().isPrimitive()) {
                copy = primitiveArrayClone(o);
                copies.put(o, copy);
                return copy;
            }
            copy = Array.newInstance(c.getComponentType(), Array.getLength(o));
            copies.put(o, copy);
            pending.push(new Object[] {copy, o});
            return copy;
        }
        if (o instanceof SelfCopying self) {
            Object copy2 = self.copyForBranch(rollbacks::add);
            copies.put(o, copy2);
            return copy2;
        }
        Plan plan = PLANS.get(c);
        List<Object> statics = STATICS.get(c);
        if (statics != null) {
            for (Object s : statics) {
                if (s == o) {
                    return o; // a class's sentinel (SmtSharing.NONE): compared by identity, so never copied
                }
            }
        }
        return plan.copy(this, o);
    }

    /*
     * The objects held by static fields, by class: a model compares some of them by identity
     * (SmtSharing.NONE), so a copy must hold the same object. Recorded for a class, its nest and
     * the types of its fields when its plan is made, which is before any of its fields is copied.
     */
    private static final java.util.concurrent.ConcurrentHashMap<Class<?>, List<Object>> STATICS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Set<Class<?>> SCANNED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static void recordStatics(Class<?> c) {
        if (c.isPrimitive() || c.isArray() || isJdk(c) || !SCANNED.add(c)) {
            return;
        }
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                try {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (v != null) {
                        STATICS.merge(v.getClass(), List.of(v), (a, b) -> {
                            List<Object> l = new ArrayList<>(a);
                            l.addAll(b);
                            return List.copyOf(l);
                        });
                    }
                } catch (IllegalAccessException | RuntimeException e) {
                    // a static the copier cannot read is one the model's objects cannot be compared with here
                }
            }
        }
    }

    private static void recordStaticsAround(Class<?> c) {
        recordStatics(c);
        for (Class<?> n : c.getNestMembers()) {
            recordStatics(n);
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                recordStatics(f.getType());
            }
        }
    }

    private static Object primitiveArrayClone(Object o) {
        if (o instanceof long[] a) {
            return a.clone();
        } else if (o instanceof int[] a) {
            return a.clone();
        } else if (o instanceof byte[] a) {
            return a.clone();
        } else if (o instanceof boolean[] a) {
            return a.clone();
        } else if (o instanceof double[] a) {
            return a.clone();
        } else if (o instanceof short[] a) {
            return a.clone();
        } else if (o instanceof char[] a) {
            return a.clone();
        }
        return ((float[]) o).clone();
    }

    private void fill(Object copy, Object original) {
        if (copy.getClass().isArray()) {
            Object[] from = (Object[]) original;
            Object[] to = (Object[]) copy;
            for (int i = 0; i < from.length; i++) {
                to[i] = of(from[i]);
            }
            return;
        }
        PLANS.get(copy.getClass()).fill(this, copy, original);
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // rebuilt through the raw collection API, elements copied one by one
    private void fillDeferred(Object copy, Object original) {
        switch (copy) {
            case Map m -> {
                for (Object e : ((Map) original).entrySet()) {
                    Map.Entry en = (Map.Entry) e;
                    m.put(of(en.getKey()), of(en.getValue()));
                }
            }
            case Collection c -> {
                for (Object e : (Collection) original) {
                    c.add(of(e));
                }
            }
            default -> throw new IllegalStateException("deferred " + copy.getClass());
        }
    }

    // ------------------------------------------------------------------ what may be shared

    /** A class of the JDK, whose fields a module may not read: rebuilt through its API, never field by field. */
    private static boolean isJdk(Class<?> c) {
        String n = c.getName();
        return n.startsWith("java.") || n.startsWith("jdk.") || n.startsWith("sun.");
    }

    private static final Set<Class<?>> VALUES = Set.of(String.class, Integer.class, Long.class, Short.class, Byte.class,
            Character.class, Boolean.class, Double.class, Float.class, Class.class);

    /** Whether instances of a class can never change, so sharing one is the same as copying it. */
    private static final ClassValue<Boolean> SHAREABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            return shareable(c, new HashSet<>());
        }
    };

    private static boolean shareable(Class<?> c, Set<Class<?>> seen) {
        if (c.isPrimitive() || VALUES.contains(c) || c.isEnum() || Enum.class.isAssignableFrom(c)) {
            return true;
        }
        if (c.isArray() || c.isInterface()) {
            return false;
        }
        if (!seen.add(c)) {
            return true; // met again on a cycle of final value classes: decided by the rest of it
        }
        String n = c.getName();
        if (n.startsWith("java.lang.invoke.") || n.equals("java.util.Collections$EmptyList")
                || n.equals("java.util.Collections$EmptyMap") || n.equals("java.util.Collections$EmptySet")) {
            return true;
        }
        if (isJdk(c)) {
            return false; // a JDK class is shared only when listed: its fields may not be readable to check
        }
        if (!Modifier.isFinal(c.getModifiers()) && !c.isRecord()) {
            return false;
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                Class<?> t = f.getType();
                if (!Modifier.isFinal(f.getModifiers()) || !(t.isPrimitive() || (Modifier.isFinal(t.getModifiers()) || t.isEnum())
                        && shareable(t, seen))) {
                    return false;
                }
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ how each class is copied

    private static final ClassValue<Plan> PLANS = new ClassValue<>() {
        @Override
        protected Plan computeValue(Class<?> c) {
            return Plan.of(c);
        }
    };

    /** How one class's instances are copied. */
    private abstract static class Plan {
        abstract Object copy(GraphCopy g, Object o);

        void fill(GraphCopy g, Object copy, Object original) {
            throw new IllegalStateException(copy.getClass() + " is not filled later");
        }

        static Plan of(Class<?> c) {
            String n = c.getName();
            if (!c.isHidden()) {
                recordStaticsAround(c);
            }
            if (isJdk(c)) {
                return new JdkPlan(c);
            }
            if (c.isHidden()) {
                return ConstructedPlan.ofHidden(c);
            }
            if (c.isRecord()) {
                return ConstructedPlan.ofRecord(c);
            }
            return new FieldPlan(c);
        }
    }

    /**
     * A class of the model: allocated without a constructor, then every field copied by one method
     * handle per class, (GraphCopy, Object copy, Object original)void, folded from each field's
     * getter and setter (a reference through {@link #of} between them): the JVM compiles it as one
     * method with the fields' offsets constant, where a reflective call per field cost more than
     * the rest of the copy.
     */
    private static final class FieldPlan extends Plan {
        private static final java.lang.invoke.MethodType STEP =
                java.lang.invoke.MethodType.methodType(void.class, GraphCopy.class, Object.class, Object.class);
        private final Constructor<?> allocator;
        private final java.lang.invoke.MethodHandle fillAll;

        FieldPlan(Class<?> c) {
            this.allocator = Allocation.constructorFor(c);
            java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.lookup();
            java.lang.invoke.MethodHandle all = java.lang.invoke.MethodHandles.empty(STEP);
            try {
                java.lang.invoke.MethodHandle ofHandle = lookup.findVirtual(GraphCopy.class, "of",
                        java.lang.invoke.MethodType.methodType(Object.class, Object.class));
                for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        f.setAccessible(true);
                        java.lang.invoke.MethodHandle getter = lookup.unreflectGetter(f);
                        java.lang.invoke.MethodHandle setter = lookup.unreflectSetter(f);
                        java.lang.invoke.MethodHandle step;
                        if (f.getType().isPrimitive()) {
                            // (to, from) -> set(to, get(from)), the copy handle ignored
                            step = java.lang.invoke.MethodHandles.dropArguments(
                                    java.lang.invoke.MethodHandles.filterArguments(setter, 1, getter)
                                            .asType(java.lang.invoke.MethodType.methodType(void.class, Object.class, Object.class)),
                                    0, GraphCopy.class);
                        } else {
                            // (g, from) -> g.of(get(from)); then (to, g, from) -> set(to, that); then (g, to, from)
                            java.lang.invoke.MethodHandle copied = java.lang.invoke.MethodHandles.filterArguments(ofHandle, 1,
                                    getter.asType(java.lang.invoke.MethodType.methodType(Object.class, Object.class)));
                            java.lang.invoke.MethodHandle store = java.lang.invoke.MethodHandles.collectArguments(
                                    setter.asType(java.lang.invoke.MethodType.methodType(void.class, Object.class, Object.class)), 1, copied);
                            step = java.lang.invoke.MethodHandles.permuteArguments(store, STEP, 1, 0, 2);
                        }
                        all = java.lang.invoke.MethodHandles.foldArguments(step, all);
                    }
                }
            } catch (ReflectiveOperationException e) {
                throw new UnsupportedOperationException("cannot copy a " + c.getName() + ": " + e, e);
            }
            this.fillAll = all;
        }

        @Override
        Object copy(GraphCopy g, Object o) {
            Object c;
            try {
                c = allocator.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new UnsupportedOperationException("cannot copy a " + o.getClass().getName() + ": " + e, e);
            }
            g.copies.put(o, c);
            g.pending.push(new Object[] {c, o});
            return c;
        }

        @Override
        void fill(GraphCopy g, Object copy, Object original) {
            try {
                fillAll.invokeExact(g, copy, original);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new UnsupportedOperationException("cannot copy a " + original.getClass().getName() + ": " + e, e);
            }
        }
    }

    /**
     * A class whose final fields cannot be written, copied by a constructor that takes its parts,
     * each copied first: a record (its components, its canonical constructor) or a hidden class, a
     * lambda's (its captured values, in the order of its fields, its one constructor).
     */
    private static final class ConstructedPlan extends Plan {
        /** Reads each part the constructor takes: a record's accessors, a lambda's fields. */
        private final java.lang.invoke.MethodHandle[] parts;
        private final Constructor<?> constructor;

        private ConstructedPlan(java.lang.invoke.MethodHandle[] parts, Constructor<?> constructor) {
            this.parts = parts;
            this.constructor = constructor;
            constructor.setAccessible(true);
        }

        static Plan ofRecord(Class<?> c) {
            RecordComponent[] components = c.getRecordComponents();
            try {
                java.lang.invoke.MethodHandle[] parts = new java.lang.invoke.MethodHandle[components.length];
                for (int i = 0; i < parts.length; i++) {
                    components[i].getAccessor().setAccessible(true);
                    parts[i] = java.lang.invoke.MethodHandles.lookup().unreflect(components[i].getAccessor());
                }
                return new ConstructedPlan(parts,
                        c.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new)));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new UnsupportedOperationException("cannot copy record " + c.getName() + ": " + e, e);
            }
        }

        static Plan ofHidden(Class<?> c) {
            Constructor<?>[] cs = c.getDeclaredConstructors();
            List<Field> fs = new ArrayList<>();
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    fs.add(f);
                }
            }
            if (c.getSuperclass() != Object.class || cs.length != 1 || !Arrays.equals(cs[0].getParameterTypes(),
                    fs.stream().map(Field::getType).toArray(Class<?>[]::new))) {
                throw new UnsupportedOperationException("cannot copy an instance of hidden " + c.getName()
                        + ": its one constructor does not take its fields in order");
            }
            try {
                java.lang.invoke.MethodHandle[] parts = new java.lang.invoke.MethodHandle[fs.size()];
                for (int i = 0; i < parts.length; i++) {
                    fs.get(i).setAccessible(true);
                    parts[i] = java.lang.invoke.MethodHandles.lookup().unreflectGetter(fs.get(i));
                }
                return new ConstructedPlan(parts, cs[0]);
            } catch (IllegalAccessException e) {
                throw new UnsupportedOperationException("cannot copy an instance of hidden " + c.getName() + ": " + e, e);
            }
        }

        @Override
        Object copy(GraphCopy g, Object o) {
            if (parts.length == 0 && o.getClass().isHidden()) {
                return o; // a lambda that captures nothing: one instance serves every copy
            }
            try {
                Object[] args = new Object[parts.length];
                for (int i = 0; i < args.length; i++) {
                    args[i] = g.of(parts[i].invoke(o));
                }
                Object c = constructor.newInstance(args);
                g.copies.put(o, c);
                return c;
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new UnsupportedOperationException("cannot copy a " + o.getClass().getName() + ": " + e, e);
            }
        }
    }

    /** The JDK classes a model holds, rebuilt through their public API. */
    private static final class JdkPlan extends Plan {
        private final Class<?> type;
        private final String name;

        JdkPlan(Class<?> type) {
            this.type = type;
            this.name = type.getName();
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"}) // collections rebuilt through their raw API
        Object copy(GraphCopy g, Object o) {
            Object c;
            if (type == ArrayList.class) {
                ArrayList<Object> l = new ArrayList<>(((ArrayList<?>) o).size());
                g.copies.put(o, l);
                for (Object e : (ArrayList<?>) o) {
                    l.add(g.of(e));
                }
                return l;
            } else if (type == ArrayDeque.class) {
                ArrayDeque<Object> d = new ArrayDeque<>(Math.max(1, ((ArrayDeque<?>) o).size()));
                g.copies.put(o, d);
                for (Object e : (ArrayDeque<?>) o) {
                    d.addLast(g.of(e));
                }
                return d;
            } else if (type == BitSet.class) {
                c = ((BitSet) o).clone();
            } else if (type == AtomicLong.class) {
                c = new AtomicLong(((AtomicLong) o).get());
            } else if (type == AtomicInteger.class) {
                c = new AtomicInteger(((AtomicInteger) o).get());
            } else if (type == AtomicBoolean.class) {
                c = new AtomicBoolean(((AtomicBoolean) o).get());
            } else if (type == Object.class) {
                c = new Object();
            } else if (type == Optional.class) {
                c = Optional.ofNullable(g.of(((Optional<?>) o).orElse(null)));
            } else if (EnumSet.class.isAssignableFrom(type)) {
                c = ((EnumSet) o).clone();
            } else if (type == EnumMap.class) {
                EnumMap m = new EnumMap((EnumMap) o);
                g.copies.put(o, m);
                for (Object e : m.entrySet()) {
                    Map.Entry en = (Map.Entry) e;
                    en.setValue(g.of(en.getValue()));
                }
                return m;
            } else if (type == HashMap.class || type == LinkedHashMap.class || type == IdentityHashMap.class
                    || type == HashSet.class || type == LinkedHashSet.class) {
                c = newEmpty(type);
                g.deferred.add(new Object[] {c, o});
            } else if (type == TreeMap.class) {
                c = new TreeMap((Comparator) g.of(((TreeMap) o).comparator()));
                g.deferred.add(new Object[] {c, o});
            } else if (type == TreeSet.class) {
                c = new TreeSet((Comparator) g.of(((TreeSet) o).comparator()));
                g.deferred.add(new Object[] {c, o});
            } else if (name.startsWith("java.util.ImmutableCollections$List")) {
                List<?> l = (List<?>) o;
                Object[] a = new Object[l.size()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = g.of(l.get(i));
                }
                c = List.of(a);
            } else if (name.startsWith("java.util.ImmutableCollections$Set") || name.startsWith("java.util.ImmutableCollections$Map")) {
                // Its iteration order follows its elements' hash codes: only a set of values keeps it in a copy.
                if (o instanceof Set<?> s && s.stream().allMatch(e -> SHAREABLE.get(e.getClass()))) {
                    return o;
                }
                if (o instanceof Map<?, ?> m && m.entrySet().stream().allMatch(e -> SHAREABLE.get(e.getKey().getClass())
                        && SHAREABLE.get(e.getValue().getClass()))) {
                    return o;
                }
                throw new UnsupportedOperationException("cannot copy a " + name + " of model objects (its order would change)");
            } else if (name.equals("java.util.Collections$UnmodifiableRandomAccessList") || name.equals("java.util.Collections$UnmodifiableList")) {
                List<Object> l = new ArrayList<>();
                for (Object e : (List<?>) o) {
                    l.add(g.of(e));
                }
                c = Collections.unmodifiableList(l);
            } else {
                throw new UnsupportedOperationException("cannot copy a " + name + ": not a JDK class a model copy knows");
            }
            g.copies.put(o, c);
            return c;
        }

        private static Object newEmpty(Class<?> t) {
            if (t == HashMap.class) {
                return new HashMap<>();
            } else if (t == LinkedHashMap.class) {
                return new LinkedHashMap<>();
            } else if (t == IdentityHashMap.class) {
                return new IdentityHashMap<>();
            } else if (t == HashSet.class) {
                return new HashSet<>();
            }
            return new LinkedHashSet<>();
        }
    }

    /**
     * Instances made without running a constructor, as deserialization makes them
     * ({@code sun.reflect.ReflectionFactory}, in jdk.unsupported, reached reflectively so that the
     * build stays free of warnings about internal APIs).
     */
    private static final class Allocation {
        private static final Object FACTORY;
        private static final java.lang.reflect.Method NEW_CONSTRUCTOR;
        private static final Constructor<Object> OBJECT;

        static {
            try {
                Class<?> rf = Class.forName("sun.reflect.ReflectionFactory");
                FACTORY = rf.getMethod("getReflectionFactory").invoke(null);
                NEW_CONSTRUCTOR = rf.getMethod("newConstructorForSerialization", Class.class, Constructor.class);
                OBJECT = Object.class.getDeclaredConstructor();
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Allocation() {}

        static Constructor<?> constructorFor(Class<?> c) {
            try {
                Constructor<?> k = (Constructor<?>) NEW_CONSTRUCTOR.invoke(FACTORY, c, OBJECT);
                k.setAccessible(true);
                return k;
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new UnsupportedOperationException("cannot copy a " + c.getName() + ": " + e, e);
            }
        }
    }
}
