package io.posekit.rig;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SkeletonLinesTest {

    /** 0 Armature (not a joint) ← 1 Hips ← 2 Helper (not a joint) ← 3 Spine; 4 Mesh (root, not a joint). */
    private static Rig rig() {
        int n = 5;
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        for (int i = 0; i < n; i++) {
            r[4 * i + 3] = 1;
            s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = 1;
        }
        return new Rig(new String[] {"Armature", "Hips", "Helper", "Spine", "Mesh"}, new int[] {-1, 0, 1, 2, -1},
                new int[] {0, 1, 2, 3, 4}, new float[3 * n], r, s);
    }

    private static float[] identities(int count) {
        float[] m = new float[16 * count];
        for (int k = 0; k < count; k++) {
            m[16 * k] = m[16 * k + 5] = m[16 * k + 10] = m[16 * k + 15] = 1;
        }
        return m;
    }

    @Test
    void jointsSkipNodesInBetween() {
        SkeletonLines lines = SkeletonLines.of(rig(), List.of(new Skin("s", new int[] {3, 1}, identities(2))), false);
        assertThat(lines.nodes()).containsExactly(1, 3);
        assertThat(lines.parents()).containsExactly(-1, 0); // Spine's nearest shown ancestor is Hips
        assertThat(lines.segmentCount()).isEqualTo(1);
    }

    @Test
    void everyNodeWhenAskedOrWithoutSkins() {
        SkeletonLines all = SkeletonLines.of(rig(), List.of(new Skin("s", new int[] {1}, identities(1))), true);
        assertThat(all.nodes()).containsExactly(0, 1, 2, 3, 4);
        assertThat(all.parents()).containsExactly(-1, 0, 1, 2, -1);
        assertThat(all.segmentCount()).isEqualTo(3);
        assertThat(SkeletonLines.of(rig(), List.of(), false).nodes()).containsExactly(0, 1, 2, 3, 4);
    }
}
