package io.posekit.clip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a clip lies in its file's scene time: {@code sceneStart} at clip time 0, {@code sceneEnd} at its end. */
class ClipSceneTimeTest {

    @Test
    void aClipStartsAtSceneTimeZeroUnlessTold() {
        Clip clip = new Clip("c", 1.5, List.of(), List.of());
        assertThat(clip.sceneStart()).isZero();
        assertThat(clip.sceneEnd()).isEqualTo(1.5);
        Clip late = clip.withSceneStart(0.25);
        assertThat(late.sceneStart()).isEqualTo(0.25);
        assertThat(late.sceneEnd()).isEqualTo(1.75);
        assertThat(late.duration()).isEqualTo(1.5);
        // part of the clip's value: the same tracks at another place in scene time are another clip
        assertThat(late).isNotEqualTo(clip).isEqualTo(new Clip("c", 1.5, List.of(), List.of(), 0.25));
        assertThat(late.hashCode()).isEqualTo(new Clip("c", 1.5, List.of(), List.of(), 0.25).hashCode());
        // a clip may start before scene time 0 (an FBX take's negative LocalStart)
        assertThat(clip.withSceneStart(-1).sceneEnd()).isEqualTo(0.5);
    }

    @Test
    void aSceneStartMustBeFinite() {
        assertThatThrownBy(() -> new Clip("c", 1, List.of(), List.of(), Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("clip scene start NaN is not finite");
        assertThatThrownBy(() -> new Clip("c", 1, List.of(), List.of(), Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("clip scene start Infinity is not finite");
    }
}
