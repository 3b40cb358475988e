package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxContainerTestSupport.EVERY_TYPE;
import static io.posekit.asset.fbx.FbxContainerTestSupport.SMALL;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertSameTree;
import static io.posekit.asset.fbx.FbxContainerTestSupport.field;
import static io.posekit.asset.fbx.FbxContainerTestSupport.recordStart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile bytes: every truncation and every single-byte corruption of small binary files fails with an
 * ImportException or parses, never anything else (no index, cast, size or memory error), with a small budget so that
 * a corrupted count cannot make the sweep slow.
 */
class FbxContainerRobustnessTest {

    private static final ImportLimits SMALL_LIMITS = new ImportLimits(1 << 20, 1000, 10, 1 << 20, 200);

    @ParameterizedTest(name = "version {0}, zlib arrays {1}")
    @CsvSource({"7400,false", "7400,true", "7500,false", "7500,true"})
    void everyTruncationFailsUntilTheTopLevelNullRecordAndParsesAfterIt(int version, boolean zlib) {
        for (FbxNode tree : new FbxNode[] {SMALL, EVERY_TYPE}) {
            byte[] file = FbxBinaryWriter.write(tree, version, zlib);
            // the top level ends with the NULL record after Takes; the footer after it is ignored
            long topLevelEnd = field(file, recordStart(file, "Takes", version), version, 0)
                    + FbxBinaryWriter.nullRecordSize(version);
            for (int n = 0; n < file.length; n++) {
                byte[] cut = Arrays.copyOf(file, n);
                if (n < topLevelEnd) {
                    try {
                        FbxReader.read(cut, SMALL_LIMITS, SMALL_LIMITS.newBudget());
                        fail("the file cut to " + n + " bytes parsed");
                    } catch (ImportException expected) {
                        assertThat(expected.kind()).as("cut to %d bytes: %s", n, expected.getMessage())
                                .isEqualTo(ImportException.Kind.INVALID);
                    }
                } else {
                    assertSameTree(tree, FbxReader.read(cut, SMALL_LIMITS, SMALL_LIMITS.newBudget()).root());
                }
            }
        }
    }

    @ParameterizedTest(name = "version {0}, zlib arrays {1}")
    @CsvSource({"7400,false", "7400,true", "7500,false", "7500,true"})
    void everyByteCorruptionFailsWithAnImportExceptionOrParses(int version, boolean zlib) {
        Map<ImportException.Kind, Integer> failures = new EnumMap<>(ImportException.Kind.class);
        int parsed = 0;
        for (FbxNode tree : new FbxNode[] {SMALL, EVERY_TYPE}) {
            byte[] file = FbxBinaryWriter.write(tree, version, zlib);
            for (int at = 0; at < file.length; at++) {
                int original = file[at] & 0xFF;
                for (int value : new int[] {0x00, 0xFF, original ^ 0x01, original ^ 0x80, original + 1, 0x7F}) {
                    byte[] corrupt = file.clone();
                    corrupt[at] = (byte) value;
                    try {
                        FbxReader.read(corrupt, SMALL_LIMITS, SMALL_LIMITS.newBudget());
                        parsed++;
                    } catch (ImportException e) {
                        failures.merge(e.kind(), 1, Integer::sum);
                    } catch (RuntimeException | Error e) {
                        throw new AssertionError("byte " + at + " set to " + value + ": " + e, e);
                    }
                }
            }
        }
        // values and strings may change freely; the structure mostly may not
        assertThat(parsed).isPositive();
        assertThat(failures.get(ImportException.Kind.INVALID)).isGreaterThan(parsed / 4);
    }

    @Test
    void everyAsciiCorruptionFailsWithAnImportExceptionOrParses() {
        byte[] text = FbxAsciiReaderTest.CUBE.getBytes(StandardCharsets.UTF_8);
        int parsed = 0;
        for (int at = 0; at < text.length; at++) {
            for (byte value : "{}\",:*;\n\0a-.#9 ".getBytes(StandardCharsets.ISO_8859_1)) {
                byte[] corrupt = text.clone();
                corrupt[at] = value;
                parsed += readsOrFailsCleanly(corrupt, "byte " + at + " set to " + value) ? 1 : 0;
            }
        }
        assertThat(parsed).isPositive();
    }

    /** Random edits (overwrites, insertions, deletions of 1–4 bytes) of binary and ASCII files, with a fixed seed. */
    @Test
    void randomEditsFailWithAnImportExceptionOrParse() {
        Random random = new Random(20240611);
        byte[][] files = {
            FbxBinaryWriter.write(EVERY_TYPE, 7400, true), FbxBinaryWriter.write(EVERY_TYPE, 7500, false),
            FbxAsciiReaderTest.CUBE.getBytes(StandardCharsets.UTF_8)};
        for (int i = 0; i < 6000; i++) {
            byte[] file = files[i % files.length];
            int at = random.nextInt(file.length);
            int n = 1 + random.nextInt(4);
            byte[] edited = switch (random.nextInt(3)) {
                case 0 -> {
                    byte[] e = file.clone();
                    for (int k = 0; k < n && at + k < e.length; k++) {
                        e[at + k] = (byte) random.nextInt(256);
                    }
                    yield e;
                }
                case 1 -> {
                    byte[] e = new byte[file.length + n];
                    System.arraycopy(file, 0, e, 0, at);
                    for (int k = 0; k < n; k++) {
                        e[at + k] = (byte) random.nextInt(256);
                    }
                    System.arraycopy(file, at, e, at + n, file.length - at);
                    yield e;
                }
                default -> {
                    int cut = Math.min(n, file.length - at);
                    byte[] e = new byte[file.length - cut];
                    System.arraycopy(file, 0, e, 0, at);
                    System.arraycopy(file, at + cut, e, at, file.length - at - cut);
                    yield e;
                }
            };
            readsOrFailsCleanly(edited, "edit " + i);
        }
    }

    private static boolean readsOrFailsCleanly(byte[] bytes, String what) {
        try {
            FbxReader.read(bytes, SMALL_LIMITS, SMALL_LIMITS.newBudget());
            return true;
        } catch (ImportException e) {
            return false;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(what + ": " + e, e);
        }
    }
}
