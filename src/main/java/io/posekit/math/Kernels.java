package io.posekit.math;

import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.Optional;

/**
 * Which implementation of the hot loops (skinning, skinning matrices) this JVM runs: the Vector API kernels
 * ({@code jdk.incubator.vector}) or the scalar ones, chosen once when the class is first used.
 *
 * <p>System property {@value #PROPERTY}: {@code auto} (the default) takes the vector kernels when the incubator
 * module is in the boot layer (the JVM was started with {@code --add-modules jdk.incubator.vector}) and the scalar
 * ones otherwise; {@code scalar} forces the scalar kernels; {@code vector} asks for the vector kernels and falls back
 * to the scalar ones (saying why in {@link #reason()}) when the module is absent. The vector classes are only ever
 * loaded by name through {@link #load}, so a JVM without the module never links them.
 */
public final class Kernels {

    /** The system property that forces a path: {@code scalar}, {@code vector} or {@code auto}. */
    public static final String PROPERTY = "posekit.kernels";
    /** The module of the Vector API. */
    public static final String MODULE = "jdk.incubator.vector";

    /** A kernel path. */
    public enum Path {
        /** Plain Java loops, in double where the precision needs it. */
        SCALAR,
        /** {@code jdk.incubator.vector} kernels (float lanes of the preferred species). */
        VECTOR;

        /** The lower-case name shown in {@code /actuator/info}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final boolean MODULE_PRESENT = ModuleLayer.boot().findModule(MODULE).isPresent();
    private static final String REQUESTED = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    private static final Path SELECTED;
    private static final String REASON;

    static {
        switch (REQUESTED) {
            case "scalar" -> {
                SELECTED = Path.SCALAR;
                REASON = PROPERTY + "=scalar";
            }
            case "vector", "auto" -> {
                SELECTED = MODULE_PRESENT ? Path.VECTOR : Path.SCALAR;
                REASON = MODULE_PRESENT ? MODULE + " present (" + PROPERTY + "=" + REQUESTED + ")"
                        : MODULE + " absent: the JVM was started without --add-modules " + MODULE;
            }
            default -> {
                SELECTED = MODULE_PRESENT ? Path.VECTOR : Path.SCALAR;
                REASON = "unknown " + PROPERTY + "=" + REQUESTED + ", treated as auto";
            }
        }
    }

    private Kernels() {
    }

    /** The path selected for this JVM. */
    public static Path selected() {
        return SELECTED;
    }

    /** Why {@link #selected()} is what it is (the property, or the module's presence). */
    public static String reason() {
        return REASON;
    }

    /** Whether the Vector API module is in the boot layer, so {@link Path#VECTOR} kernels can be loaded. */
    public static boolean vectorAvailable() {
        return MODULE_PRESENT;
    }

    /**
     * The vector species the vector kernels use, e.g.
     * {@code "FloatVector 128 bits, DoubleVector 256 bits (preferred 512 bits)"}, or empty without the
     * module (the species exist whichever path is selected).
     */
    public static Optional<String> species() {
        if (!MODULE_PRESENT) {
            return Optional.empty();
        }
        try {
            Class<?> c = Class.forName("io.posekit.math.VectorLanes");
            return Optional.of((String) c.getMethod("describe").invoke(null));
        } catch (ReflectiveOperationException | LinkageError e) {
            return Optional.empty();
        }
    }

    /**
     * A new instance of kernel {@code type}: on {@link Path#SCALAR} {@code scalar}'s, on {@link Path#VECTOR} the
     * class named {@code vectorClass} (public or package-private, with a no-argument constructor), loaded only then.
     *
     * @throws IllegalStateException when {@code path} is VECTOR but the module is absent or the class cannot be made
     */
    public static <T> T load(Path path, Class<T> type, String vectorClass, java.util.function.Supplier<T> scalar) {
        if (path == Path.SCALAR) {
            return scalar.get();
        }
        if (!MODULE_PRESENT) {
            throw new IllegalStateException(MODULE + " is not in the boot layer (--add-modules " + MODULE + ")");
        }
        try {
            var constructor = Class.forName(vectorClass, true, type.getClassLoader()).getDeclaredConstructor();
            constructor.setAccessible(true);
            return type.cast(constructor.newInstance());
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot create " + vectorClass, e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot create " + vectorClass, e);
        }
    }
}
