package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BlendModeTest {

    @Test
    void wireNamesRoundTripExactly() {
        assertThat(BlendMode.NORMAL.wireName()).isEqualTo("normal");
        assertThat(BlendMode.ADDITIVE.wireName()).isEqualTo("additive");
        for (BlendMode mode : BlendMode.values()) {
            assertThat(BlendMode.byWireName(mode.wireName())).contains(mode);
        }
        assertThat(BlendMode.byWireName("Normal")).isEmpty();
        assertThat(BlendMode.byWireName("NORMAL")).isEmpty();
        assertThat(BlendMode.byWireName(null)).isEmpty();
    }
}
