package io.posekit.math;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector species of the Vector API kernels, in one place. They work one matrix column per vector: 4 floats
 * ({@link #FLOAT}, skinning) or 4 doubles ({@link #DOUBLE}, the matrix chain, which stays in double). Wider species
 * (the CPU's preferred one may be 512 bits) would need gathers across vertices or joints, which measured slower than
 * the scalar code here. Only loaded on the vector path ({@link Kernels}): referring to it without
 * {@code --add-modules jdk.incubator.vector} fails to link.
 */
public final class VectorLanes {

    /** 4 floats: a column (x, y, z, w) of a float matrix. */
    public static final VectorSpecies<Float> FLOAT = FloatVector.SPECIES_128;
    /** 4 doubles: a column of a double matrix. */
    public static final VectorSpecies<Double> DOUBLE = DoubleVector.SPECIES_256;

    private VectorLanes() {
    }

    /**
     * For {@code /actuator/info}: e.g. {@code "FloatVector 128 bits, DoubleVector 256 bits (preferred 512 bits)"}.
     */
    public static String describe() {
        return "FloatVector " + FLOAT.vectorBitSize() + " bits, DoubleVector " + DOUBLE.vectorBitSize()
                + " bits (preferred " + FloatVector.SPECIES_PREFERRED.vectorBitSize() + " bits)";
    }
}
