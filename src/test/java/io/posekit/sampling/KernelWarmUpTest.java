package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.math.Kernels;
import org.junit.jupiter.api.Test;

class KernelWarmUpTest {

    @Test
    void theTestsRunOnTheVectorPathUnlessTheScalarOneIsAskedFor() {
        // surefire starts the JVM with --add-modules jdk.incubator.vector, so the warm-up's check compares two paths;
        // its second execution asks for the scalar kernels
        boolean scalar = "scalar".equals(System.getProperty(Kernels.PROPERTY));

        assertThat(Kernels.selected()).isEqualTo(scalar ? Kernels.Path.SCALAR : Kernels.Path.VECTOR);
    }

    @Test
    void theSelectedKernelsAgreeWithTheScalarOnesOnTheWarmUpData() {
        double difference = KernelWarmUp.run(40);

        assertThat(difference).isFinite().isBetween(0.0, 1e-5);
    }

    @Test
    void aWarmUpOfNoRoundsIsRefused() {
        assertThatThrownBy(() -> KernelWarmUp.run(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rounds must be at least 1, not 0");
    }
}
