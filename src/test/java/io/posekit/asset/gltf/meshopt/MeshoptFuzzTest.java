package io.posekit.asset.gltf.meshopt;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hostile input straight into {@link MeshoptDecoder}: 60,000 seeded mutants of valid streams of every mode (byte
 * flips, truncations, insertions, lying counts and strides, huge declared sizes) must each decode or fail with an
 * {@link ImportException}, never another exception, and be refused (too large) before allocating past the decode
 * budget (the upload-level
 * fuzzer, {@code UploadFuzzTest}, also mutates a meshopt-compressed GLB seed through the HTTP API).
 */
class MeshoptFuzzTest {

    private record Stream(byte[] bytes, int count, int stride, MeshoptMode mode, MeshoptFilter filter) {
    }

    @Test
    void everyMutantDecodesOrIsAnImportException() {
        SplittableRandom random = new SplittableRandom(30);
        List<Stream> seeds = seeds(random);
        int decoded = 0;
        int refused = 0;
        int tooLarge = 0;
        for (int i = 0; i < 60_000; i++) {
            Stream seed = seeds.get(random.nextInt(seeds.size()));
            byte[] bytes = mutate(seed.bytes(), random);
            int count = seed.count();
            int stride = seed.stride();
            switch (random.nextInt(8)) {
                case 0 -> count = random.nextInt(count * 2 + 2);
                case 1 -> count = random.nextBoolean() ? Integer.MAX_VALUE / stride : random.nextInt();
                case 2 -> stride = 4 * (1 + random.nextInt(64));
                default -> {
                }
            }
            DecodeBudget budget = new DecodeBudget(1 << 20);
            try {
                byte[] out = MeshoptDecoder.decode(bytes, 0, bytes.length, count, stride, seed.mode(), seed.filter(),
                        budget, "view");
                assertThat(out).hasSize(count * stride);
                assertThat(budget.used()).isLessThanOrEqualTo(1 << 20);
                decoded++;
            } catch (ImportException e) {
                if (e.kind() == ImportException.Kind.TOO_LARGE) {
                    tooLarge++;
                } else {
                    refused++;
                }
                assertThat(e.getMessage()).startsWith("view");
            }
        }
        assertThat(decoded).as("mutants decoded").isGreaterThan(1000);
        assertThat(refused).as("mutants refused").isGreaterThan(10_000);
        assertThat(tooLarge).as("mutants past the budget").isGreaterThan(1000);
    }

    private static List<Stream> seeds(SplittableRandom random) {
        List<Stream> seeds = new ArrayList<>();
        for (int stride : new int[] {4, 8, 12, 64}) {
            int count = 1 + random.nextInt(600);
            byte[] data = new byte[count * stride];
            random.nextBytes(data);
            seeds.add(new Stream(MeshoptFixtures.attributes(data, count, stride), count, stride, MeshoptMode.ATTRIBUTES,
                    MeshoptFilter.NONE));
        }
        byte[] eight = new byte[8 * 40];
        random.nextBytes(eight);
        for (MeshoptFilter f : List.of(MeshoptFilter.OCTAHEDRAL, MeshoptFilter.QUATERNION, MeshoptFilter.EXPONENTIAL,
                MeshoptFilter.COLOR)) {
            seeds.add(new Stream(MeshoptFixtures.attributes(eight, 40, 8), 40, 8, MeshoptMode.ATTRIBUTES, f));
        }
        int[] indices = new int[300];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = random.nextInt(5000);
        }
        seeds.add(new Stream(MeshoptFixtures.indexSequence(indices), 300, 4, MeshoptMode.INDICES, MeshoptFilter.NONE));
        // a triangle stream of codes that each start three new vertices (0xf0, table entry 0 = 0x00)
        byte[] triangles = new byte[1 + 50 + 16];
        triangles[0] = (byte) 0xE1;
        Arrays.fill(triangles, 1, 51, (byte) 0xF0);
        seeds.add(new Stream(triangles, 150, 2, MeshoptMode.TRIANGLES, MeshoptFilter.NONE));
        return seeds;
    }

    private static byte[] mutate(byte[] seed, SplittableRandom random) {
        byte[] b = seed.clone();
        switch (random.nextInt(5)) {
            case 0 -> {
                for (int k = 1 + random.nextInt(8); k > 0; k--) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
            }
            case 1 -> b = Arrays.copyOf(b, random.nextInt(b.length + 1));
            case 2 -> {
                int at = random.nextInt(b.length + 1);
                byte[] grown = new byte[b.length + 1 + random.nextInt(40)];
                System.arraycopy(b, 0, grown, 0, at);
                System.arraycopy(b, at, grown, grown.length - (b.length - at), b.length - at);
                b = grown;
            }
            case 3 -> {
                // every byte of the head set: escapes and 8-bit groups everywhere
                Arrays.fill(b, 1, Math.min(b.length, 1 + random.nextInt(64)), (byte) 0xFF);
            }
            default -> ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        }
        return b;
    }
}
