package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxContainerTestSupport.SMALL;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertInvalid;
import static io.posekit.asset.fbx.FbxContainerTestSupport.read;
import static io.posekit.asset.fbx.FbxContainerTestSupport.withU32;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Which container a file is, and the binary header. */
class FbxReaderTest {

    private static final String NOT_FBX = "not an FBX file: it starts neither with the binary FBX magic 'Kaydara FBX"
            + " Binary' nor with an ASCII FBX record ('Name: …')";

    @Test
    void theMagicChoosesTheContainer() {
        assertThat(read(FbxBinaryWriter.write(SMALL, 7400)).binary()).isTrue();
        assertThat(read("; FBX 7.4.0 project file\nFBXHeaderExtension: {\n FBXVersion: 7400\n}\n"
                .getBytes(StandardCharsets.UTF_8)).binary()).isFalse();
    }

    @Test
    void anythingElseIsNotAnFbxFile() {
        assertInvalid(new byte[0], NOT_FBX + " (the file is empty)");
        assertInvalid("hello world", NOT_FBX);
        assertInvalid("{\"asset\": {\"version\": \"2.0\"}}", NOT_FBX);
        assertInvalid("<?xml version=\"1.0\"?><COLLADA/>", NOT_FBX);
        assertInvalid("; only a comment\n\n", NOT_FBX);
        assertInvalid(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, NOT_FBX);
        assertInvalid(new byte[] {'K', 'a', 'y', 'd'}, NOT_FBX);
    }

    @Test
    void aDamagedOrCutShortBinaryHeaderIsReportedAsSuch() {
        byte[] f = FbxBinaryWriter.write(SMALL, 7400);
        byte[] damaged = f.clone();
        damaged[17] = '!';
        assertInvalid(damaged, "not an FBX file: it starts like the binary FBX magic but has"
                + " 'Kaydara FBX Binar!  \\x00' instead of 'Kaydara FBX Binary  \\x00'");
        assertInvalid(Arrays.copyOf(f, 12), "the binary FBX header is cut short: the file has 12 bytes, the header"
                + " needs 27");
        assertInvalid(Arrays.copyOf(f, 26), "the binary FBX header is cut short: the file has 26 bytes, the header"
                + " needs 27");
        byte[] endian = f.clone();
        endian[22] = 1;
        assertInvalid(endian, "the binary FBX header has bytes 0x1A 0x01 after the magic, not 0x1A 0x00");
        assertInvalid(withU32(f, 23, 0), "the binary FBX header declares FBX version 0; FBX versions are four-digit"
                + " numbers such as 7400");
        assertInvalid(withU32(f, 23, 0xFFFF_FFFFL), "the binary FBX header declares FBX version 4294967295; FBX"
                + " versions are four-digit numbers such as 7400");
    }
}
