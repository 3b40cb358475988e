package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.math.Kernels;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.SkinningMatricesJob;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scalar and the vector kernels of {@link LocalToModelJob} and {@link SkinningMatricesJob} against each other on
 * random rigs: a chain 80 deep (deeper than BrainStem) and a bushy tree, random rotations, non-uniform scales and
 * translations, several roots, and inverse binds that are affine or not. Both accumulate in double, so they agree to
 * a float rounding: {@code |v − s| ≤ 1e-6 · max(1, max|s|)} per matrix.
 */
class MatrixKernelsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chain", "tree"})
    void theVectorKernelsMatchTheScalarOnes(String shape) {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        int n = 160;
        SplittableRandom random = new SplittableRandom(shape.hashCode());
        int[] parents = new int[n];
        for (int i = 0; i < n; i++) {
            // two roots; the chain's nodes hang one below the other, the tree's below any earlier node
            parents[i] = i == 0 || i == n / 2 ? -1 : shape.equals("chain") ? i - 1 : random.nextInt(i);
        }
        String[] names = new String[n];
        int[] source = new int[n];
        for (int i = 0; i < n; i++) {
            names[i] = "n" + i;
            source[i] = i;
        }
        LocalPose pose = new LocalPose(n);
        for (int i = 0; i < n; i++) {
            double x = random.nextGaussian(), y = random.nextGaussian(), z = random.nextGaussian(),
                    w = random.nextGaussian();
            double len = Math.sqrt(x * x + y * y + z * z + w * w);
            float[] r = pose.rotations();
            r[4 * i] = (float) (x / len);
            r[4 * i + 1] = (float) (y / len);
            r[4 * i + 2] = (float) (z / len);
            r[4 * i + 3] = (float) (w / len);
            for (int c = 0; c < 3; c++) {
                pose.translations()[3 * i + c] = (float) random.nextDouble(-2, 2);
                pose.scales()[3 * i + c] = (float) random.nextDouble(0.8, 1.25);
            }
        }
        Rig rig = new Rig(names, parents, source, pose.translations().clone(), pose.rotations().clone(),
                pose.scales().clone());
        int joints = n / 2;
        int[] jointNodes = new int[joints];
        float[] inverseBinds = new float[16 * joints];
        for (int k = 0; k < joints; k++) {
            jointNodes[k] = random.nextInt(n);
            for (int e = 0; e < 16; e++) {
                inverseBinds[16 * k + e] = (float) random.nextDouble(-1, 1);
            }
            if (k % 3 != 0) {
                // affine, as most are
                inverseBinds[16 * k + 3] = inverseBinds[16 * k + 7] = inverseBinds[16 * k + 11] = 0;
                inverseBinds[16 * k + 15] = 1;
            }
        }
        Skin skin = new Skin("skin", jointNodes, inverseBinds);

        float[][] model = new float[2][];
        float[][] skinning = new float[2][];
        for (Kernels.Path path : Kernels.Path.values()) {
            LocalToModelJob toModel = new LocalToModelJob(path);
            toModel.rig = rig;
            toModel.input = pose;
            toModel.output = new float[16 * n];
            toModel.run();
            SkinningMatricesJob matrices = new SkinningMatricesJob(path);
            matrices.skin = skin;
            matrices.modelMatrices = toModel.output;
            matrices.output = new float[16 * joints];
            matrices.run();
            model[path.ordinal()] = toModel.output;
            skinning[path.ordinal()] = matrices.output;
        }
        assertClose(model[1], model[0]);
        assertClose(skinning[1], skinning[0]);
        for (int i = 0; i < n; i++) {
            // the bottom rows are exact
            assertThat(new float[] {model[1][16 * i + 3], model[1][16 * i + 7], model[1][16 * i + 11],
                model[1][16 * i + 15]}).containsExactly(0, 0, 0, 1);
        }
    }

    @Test
    void bothSkinningMatricesKernelsRefuseANodeWithoutAModelMatrix() {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        for (Kernels.Path path : Kernels.Path.values()) {
            SkinningMatricesJob job = new SkinningMatricesJob(path);
            job.skin = new Skin("skin", new int[] {0, 2}, new float[32]);
            job.modelMatrices = new float[32];
            job.output = new float[32];
            assertThat(job.validate()).isFalse();
            assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("joint 1 is node 2 but there are 2 model matrices");
        }
    }

    private static void assertClose(float[] actual, float[] expected) {
        for (int m = 0; m < expected.length / 16; m++) {
            double largest = 1;
            for (int e = 0; e < 16; e++) {
                largest = Math.max(largest, Math.abs(expected[16 * m + e]));
            }
            for (int e = 0; e < 16; e++) {
                int i = 16 * m + e;
                assertThat((double) Math.abs(actual[i] - expected[i])).as("matrix %d element %d", m, e)
                        .isLessThanOrEqualTo(1e-6 * largest);
            }
        }
    }
}
