package io.posekit.math;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector species every Vector API kernel uses: {@link FloatVector#SPECIES_PREFERRED} (the widest the CPU and the
 * JIT support, e.g. 512 bits = 16 floats with AVX-512, 256 with AVX2), capped at 512 bits because the kernels lay
 * a joint's matrix out as one 16-float row. Only loaded on the vector path ({@link Kernels}): referring to it
 * without {@code --add-modules jdk.incubator.vector} fails to link.
 */
public final class VectorLanes {

    /** The float species of the vector kernels: 4, 8 or 16 lanes. */
    public static final VectorSpecies<Float> FLOAT = FloatVector.SPECIES_PREFERRED.length() > 16
            ? FloatVector.SPECIES_512 : FloatVector.SPECIES_PREFERRED;

    private VectorLanes() {
    }

    /** E.g. {@code "FloatVector 512 bits (16 lanes)"}, for {@code /actuator/info}. */
    public static String describe() {
        return "FloatVector " + FLOAT.vectorBitSize() + " bits (" + FLOAT.length() + " lanes)";
    }
}
