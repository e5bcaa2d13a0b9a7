package dev.pvtlb.pvops;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.FieldManifestation;
import net.bytebuddy.description.modifier.TypeManifestation;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.dynamic.scaffold.subclass.ConstructorStrategy;
import net.bytebuddy.implementation.FieldAccessor;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.MethodCall;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Boot-time patching of pv_ops (the analogue of paravirt_patch / static_call_update): from a
 * backend object whose public methods carry {@link PvOp}, generate a final {@link PvOps}
 * subclass whose every op is a direct call on a final field holding the backend. Call sites
 * see that one class; there is no lookup per call. Generated classes are cached per backend
 * class (a guest is booted per schedule by the explorer, the class is made once).
 */
public final class PvOpsPatcher {
    private static final ClassValue<Class<? extends PvOps>> PLAIN = new ClassValue<>() {
        @Override
        protected Class<? extends PvOps> computeValue(Class<?> type) {
            return generate(type, false);
        }
    };
    private static final ClassValue<Class<? extends PvOps>> TRACED = new ClassValue<>() {
        @Override
        protected Class<? extends PvOps> computeValue(Class<?> type) {
            return generate(type, true);
        }
    };

    /** Backend classes already checked (a class is checked once; guests are booted and reset often). */
    private static final ClassValue<Boolean> CHECKED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            implementations(type.getName(), type);
            return Boolean.TRUE;
        }
    };

    private PvOpsPatcher() {}

    /**
     * Patches pv_ops to {@code backend}: checks its ops, then instantiates the generated class.
     * With a {@code tracer}, every op call is also handed to it (op name and arguments)
     * before the backend runs; null: untraced.
     */
    public static PvOps patch(String name, Object backend, BiConsumer<String, Object[]> tracer) {
        boolean trace = tracer != null;
        Class<?> type = backend.getClass();
        try {
            CHECKED.get(type); // validate first so errors name the backend, not Byte Buddy
        } catch (PvOpsBootException e) {
            implementations(name, type); // again, for the message with the backend's registered name
            throw e;
        }
        Class<? extends PvOps> generated = (trace ? TRACED : PLAIN).get(type);
        PvOps ops;
        try {
            ops = generated.getConstructor(type).newInstance(backend);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("pv_ops class " + generated.getName() + " failed to construct", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("pv_ops class " + generated.getName() + " cannot be constructed", e);
        }
        ops.bind(name, tracer);
        return ops;
    }

    /**
     * The backend's ops by signature, checked: every {@link PvOp} method public and named after
     * a known op with its exact signature, no op twice, every required op present.
     */
    static Map<PvOpSignature, Method> implementations(String name, Class<?> type) {
        String who = "backend '" + name + "' (" + type.getName() + ")";
        if (!Modifier.isPublic(type.getModifiers())) {
            throw new PvOpsBootException(who + ": the class must be public so the patched pv_ops can call it");
        }
        Map<PvOpSignature, Method> ops = new EnumMap<>(PvOpSignature.class);
        Method[] annotated = annotatedMethods(type);
        for (Method m : annotated) {
            String op = m.getAnnotation(PvOp.class).value();
            PvOpSignature sig = PvOpSignature.byOpName(op);
            String where = type.getSimpleName() + "." + m.getName();
            if (sig == null) {
                throw new PvOpsBootException(who + ": " + where + " implements unknown op '" + op + "' (ops: "
                        + Arrays.stream(PvOpSignature.values()).map(s -> s.opName).collect(Collectors.joining(", ")) + ")");
            }
            if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) {
                throw new PvOpsBootException(who + ": " + where + " implementing " + op + " must be a public instance method");
            }
            if (!sig.matches(m)) {
                throw new PvOpsBootException(who + ": " + where + " has the wrong signature for " + op + ": "
                        + PvOpSignature.describe(m) + ", expected " + sig.describe());
            }
            Method prev = ops.put(sig, m);
            if (prev != null) {
                throw new PvOpsBootException(who + ": op " + op + " is implemented twice, by "
                        + type.getSimpleName() + "." + prev.getName() + " and " + where);
            }
        }
        for (PvOpSignature sig : PvOpSignature.values()) {
            if (sig.required && !ops.containsKey(sig)) {
                throw new PvOpsBootException(who + ": missing op " + sig.opName + " (a public method annotated @PvOp(\""
                        + sig.opName + "\") with signature " + sig.describe() + ")");
            }
        }
        return ops;
    }

    /** Methods carrying @PvOp declared on the class and its superclasses, in a fixed order. */
    private static Method[] annotatedMethods(Class<?> type) {
        java.util.List<Method> out = new java.util.ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(PvOp.class) && !m.isBridge() && !overridden(m, out)) {
                    out.add(m);
                }
            }
        }
        out.sort(Comparator.comparing(Method::getName).thenComparing(m -> Arrays.toString(m.getParameterTypes())));
        return out.toArray(Method[]::new);
    }

    private static boolean overridden(Method m, java.util.List<Method> seen) {
        for (Method s : seen) {
            if (s.getName().equals(m.getName()) && Arrays.equals(s.getParameterTypes(), m.getParameterTypes())) {
                return true;
            }
        }
        return false;
    }

    private static Class<? extends PvOps> generate(Class<?> type, boolean trace) {
        Map<PvOpSignature, Method> ops = implementations(type.getName(), type);
        try {
            DynamicType.Builder<PvOps> b = new ByteBuddy()
                    .subclass(PvOps.class, ConstructorStrategy.Default.NO_CONSTRUCTORS)
                    .name(type.getName() + (trace ? "$$TracedPvOps" : "$$PvOps"))
                    .modifiers(Visibility.PUBLIC, TypeManifestation.FINAL)
                    .defineField("backend", type, Visibility.PRIVATE, FieldManifestation.FINAL)
                    .defineConstructor(Visibility.PUBLIC).withParameters(type)
                    .intercept(MethodCall.invoke(PvOps.class.getDeclaredConstructor())
                            .andThen(FieldAccessor.ofField("backend").setsArgumentAt(0)));
            for (var e : ops.entrySet()) {
                PvOpSignature sig = e.getKey();
                Implementation call = MethodCall.invoke(e.getValue()).onField("backend").withAllArguments();
                if (trace) {
                    call = Advice.to(PvOpsTraceAdvice.class).wrap(call);
                }
                b = b.method(ElementMatchers.named(sig.javaName)
                                .and(ElementMatchers.takesArguments(sig.parameters.toArray(Class<?>[]::new))))
                        .intercept(call);
            }
            return b.make().load(type.getClassLoader(), loadingStrategy(type)).getLoaded();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("PvOps has no no-argument constructor", e);
        }
    }

    /**
     * Where the generated class lives. On the class path, and for a module that exports the
     * backend's package: a child loader of the backend's (WRAPPER), which sees both the backend
     * and PvOps. A backend in a named module whose package is not exported (the shipped ones
     * in {@code dev.pvtlb.hypervisors}) cannot be called from there, so the class is defined
     * in the backend's own package through a lookup, which the module grants by opening that
     * package to {@code dev.pvtlb.guest}.
     */
    private static ClassLoadingStrategy<ClassLoader> loadingStrategy(Class<?> type) {
        Module backend = type.getModule();
        String pkg = type.getPackageName();
        if (!backend.isNamed() || backend.isExported(pkg)) {
            return ClassLoadingStrategy.Default.WRAPPER;
        }
        Module self = PvOpsPatcher.class.getModule();
        if (!backend.isOpen(pkg, self)) {
            throw new PvOpsBootException("backend " + type.getName() + ": module " + backend.getName()
                    + " neither exports package " + pkg + " nor opens it to " + self.getName()
                    + ", so the patched pv_ops cannot call it (add 'opens " + pkg + " to " + self.getName() + ";')");
        }
        self.addReads(backend);
        try {
            return ClassLoadingStrategy.UsingLookup.of(MethodHandles.privateLookupIn(type, MethodHandles.lookup()));
        } catch (IllegalAccessException e) {
            throw new PvOpsBootException("backend " + type.getName() + ": no access to define its pv_ops class: " + e.getMessage());
        }
    }
}
