package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.rig.Rig;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class JointMaskTest {

    /** 0 hips → 1 spine → 2 arm → 3 hand; 0 → 4 leg; 5 other (a second root, unnamed child 6). */
    private static Rig rig() {
        int n = 7;
        float[] rotations = new float[4 * n];
        float[] scales = new float[3 * n];
        for (int i = 0; i < n; i++) {
            rotations[4 * i + 3] = 1;
            Arrays.fill(scales, 3 * i, 3 * i + 3, 1);
        }
        return new Rig(new String[] {"hips", "spine", "arm", "hand", "leg", "other", null},
                new int[] {-1, 0, 1, 2, 0, -1, 5}, new int[] {0, 1, 2, 3, 4, 5, 6}, new float[3 * n], rotations,
                scales);
    }

    @Test
    void aNameSelectsItsNodeAndWholeSubtree() {
        Rig rig = rig();
        assertThat(JointMask.subtrees(rig, List.of("spine"))).containsExactly(0, 1, 1, 1, 0, 0, 0);
        assertThat(JointMask.subtrees(rig, List.of("hips"))).containsExactly(1, 1, 1, 1, 1, 0, 0);
        assertThat(JointMask.subtrees(rig, List.of("hand", "leg"))).containsExactly(0, 0, 0, 1, 1, 0, 0);
        assertThat(JointMask.subtrees(rig, List.of("other"))).containsExactly(0, 0, 0, 0, 0, 1, 1);
        assertThat(JointMask.subtrees(rig, List.of("arm", "spine", "arm"))).containsExactly(0, 1, 1, 1, 0, 0, 0);
        assertThat(JointMask.subtrees(rig, List.of())).containsExactly(0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void everyNodeSharingANameIsSelected() {
        Rig rig = new Rig(new String[] {"root", "twin", "twin", "leaf"}, new int[] {-1, 0, 0, 2},
                new int[] {0, 1, 2, 3}, new float[12], new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1},
                new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
        assertThat(JointMask.subtrees(rig, List.of("twin"))).containsExactly(0, 1, 1, 1);
    }

    @Test
    void namesAreExactAndUnknownOnesAreNamedInTheError() {
        Rig rig = rig();
        assertThatThrownBy(() -> JointMask.subtrees(rig, List.of("spine", "Arm")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown joint name 'Arm'");
        assertThatThrownBy(() -> JointMask.subtrees(rig, List.of("hips ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'hips '");
        String huge = "x".repeat(10_000);
        assertThatThrownBy(() -> JointMask.subtrees(rig, List.of(huge)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown joint name '" + "x".repeat(64) + "…'");
        assertThatThrownBy(() -> JointMask.subtrees(rig, Arrays.asList("hips", null)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
