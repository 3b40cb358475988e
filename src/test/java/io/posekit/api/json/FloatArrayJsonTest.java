package io.posekit.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.body.MeshResponses;
import io.posekit.api.body.PoseResponses;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link FloatArrayJson} writes exactly what Jackson's own {@code float[]} serializer writes: every output path
 * (bytes, streams, strings, trees), arrays of every length around the run size and far beyond the generator's
 * buffer, lists of arrays, non-finite values, and the settings it leaves to Jackson.
 */
class FloatArrayJsonTest {

    private static final JsonMapper JACKSON = JsonMapper.builder().build();
    private static final JsonMapper FAST = JsonMapper.builder().addModule(FloatArrayJson.module()).build();

    private static float[] randomFloats(SplittableRandom random, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            float v = random.nextBoolean() ? Float.intBitsToFloat(random.nextInt())
                    : (float) ((random.nextDouble() - 0.5) * 200);
            a[i] = Float.isFinite(v) ? v : -0f;
        }
        return a;
    }

    private static void assertSameAsJackson(Object value) {
        byte[] expected = JACKSON.writeValueAsBytes(value);
        assertThat(new String(FAST.writeValueAsBytes(value), StandardCharsets.UTF_8))
                .isEqualTo(new String(expected, StandardCharsets.UTF_8));
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        FAST.writeValue(stream, value);
        assertThat(stream.toByteArray()).isEqualTo(expected);
        assertThat(FAST.writeValueAsString(value)).isEqualTo(JACKSON.writeValueAsString(value));
        JsonNode tree = FAST.valueToTree(value);
        assertThat(tree).isEqualTo(JACKSON.<JsonNode>valueToTree(value));
    }

    @Test
    void skinnedMeshesOfEveryLengthAreWrittenAsJacksonWritesThem() {
        SplittableRandom random = new SplittableRandom(2024);
        for (int n : new int[] {0, 1, 2, 31, 32, 33, 63, 64, 65, 500, 3 * 1728, 60_000}) {
            MeshResponses.Skinned mesh = new MeshResponses.Skinned(0, "Walk", 0.25, "repeat", 0.25,
                    List.of(new MeshResponses.SkinnedPrimitive(n, randomFloats(random, n), randomFloats(random, n), null),
                            new MeshResponses.SkinnedPrimitive(n, randomFloats(random, n), null, randomFloats(random, n))),
                    null);
            assertSameAsJackson(mesh);
        }
    }

    @Test
    void skinningMatricesAreWrittenAsJacksonWritesThem() {
        SplittableRandom random = new SplittableRandom(16);
        List<String> joints = new ArrayList<>();
        List<float[]> matrices = new ArrayList<>();
        for (int k = 0; k < 24; k++) {
            joints.add("joint" + k);
            matrices.add(randomFloats(random, 16));
        }
        assertSameAsJackson(new PoseResponses.SkinMatrices(0, "Walk", 0.5, "clamp", 0.5, joints, matrices, null));
    }

    @Test
    void textIsTheShortestDecimalAndReadsBackAsTheSameFloats() {
        assertThat(FAST.writeValueAsString(new PoseResponses.ModelNode("a",
                new float[] {1f, -0f, 0.1f, 1.0E-4f, 1234567f, 3.4028235E38f, Float.MIN_VALUE})))
                .isEqualTo("{\"name\":\"a\",\"matrix\":[1.0,-0.0,0.1,1.0E-4,1234567.0,3.4028235E38,1.4E-45]}");
        float[] values = randomFloats(new SplittableRandom(5), 10_000);
        assertThat(FAST.readValue(FAST.writeValueAsBytes(values), float[].class)).isEqualTo(values);
    }

    @Test
    void nonFiniteValuesAreWrittenAsJacksonWritesThem() {
        float[] values = {1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 2.5f};
        assertThat(FAST.writeValueAsString(values)).isEqualTo("[1.0,\"NaN\",\"Infinity\",\"-Infinity\",2.5]");
        float[] many = randomFloats(new SplittableRandom(9), 1000);
        many[700] = Float.NaN;
        assertSameAsJackson(many);
    }

    @Test
    void prettyPrintingNumbersAsStringsAndUnwrappingAreJacksons() {
        float[] values = randomFloats(new SplittableRandom(3), 100);
        assertThat(FAST.writerWithDefaultPrettyPrinter().writeValueAsString(values))
                .isEqualTo(JACKSON.writerWithDefaultPrettyPrinter().writeValueAsString(values));
        JsonMapper fastQuoted = FAST.rebuild().enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS).build();
        JsonMapper jacksonQuoted = JACKSON.rebuild().enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS).build();
        assertThat(fastQuoted.writeValueAsString(values)).isEqualTo(jacksonQuoted.writeValueAsString(values))
                .startsWith("[\"");
        JsonMapper fastUnwrapping = FAST.rebuild().enable(SerializationFeature.WRITE_SINGLE_ELEM_ARRAYS_UNWRAPPED).build();
        assertThat(fastUnwrapping.writeValueAsString(new PoseResponses.ModelNode("b", new float[] {2.5f})))
                .isEqualTo("{\"name\":\"b\",\"matrix\":2.5}");
    }
}
