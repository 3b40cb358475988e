package io.posekit.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.fuzz.Mutants.Mutant;
import io.posekit.fuzz.Seeds.Seed;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The mutant generator: reproducible from (seed, format, index) alone, and every kind of edit actually made. */
class MutantsTest {

    private static final Map<String, List<Seed>> SEEDS = Seeds.all();

    @Test
    void aMutantIsAFunctionOfSeedFormatAndIndexAlone() {
        for (String format : Seeds.FORMATS) {
            for (int index : new int[] {0, 1, 977, 14_285}) {
                Mutant a = Mutants.make(42, format, SEEDS.get(format), index);
                // made again after other mutants, as a replay would
                Mutants.make(42, format, SEEDS.get(format), index + 1);
                Mutant b = Mutants.make(42, format, SEEDS.get(format), index);
                assertThat(b.description()).isEqualTo(a.description());
                assertThat(b.seed()).isEqualTo(a.seed());
                assertThat(b.raw()).isEqualTo(a.raw());
                assertThat(b.parts().keySet()).containsExactlyElementsOf(a.parts().keySet());
                a.parts().forEach((name, bytes) -> assertThat(b.parts().get(name)).as(format + " #" + index + " " + name)
                        .isEqualTo(bytes));
            }
        }
        assertThat(Mutants.make(42, "gltf", SEEDS.get("gltf"), 5).description())
                .isNotEqualTo(Mutants.make(43, "gltf", SEEDS.get("gltf"), 5).description());
    }

    @Test
    void everyKindOfEditIsMade() {
        List<String> descriptions = new ArrayList<>();
        for (String format : Seeds.FORMATS) {
            // 2,500 each: glTF's seven seeds (one meshopt-compressed) spread its JSON edits over more files
            for (int i = 0; i < 2500; i++) {
                descriptions.add(format + ": " + Mutants.make(7, format, SEEDS.get(format), i).description());
            }
        }
        String all = String.join("\n", descriptions);
        for (String kind : List.of("flip bits", "set bytes", "truncate to", "splice [0,", "copy [", "duplicate [",
                "delete [", "bytes at", "length lie: u32", "length lie: u16", "length lie: u64", "number at",
                "delete token", "duplicate line", "delete line", "swap lines", "repeat line", "insert '", "word at", "GLB JSON chunk", "GLB BIN chunk", "json delete", "json swap", "json retype",
                ".children +=", "json buffer uri", "payload:", "nested", "sparse =", "xml add", "text: token",
                "xml duplicate", "xml delete", "<instance_node", "xml move", "xml rename", "xml DOCTYPE variant",
                "xml recoded", "byte order mark", "declared encoding", "zip entry named", "1001 extra entries",
                "4 MiB entry", "zipped inside", "directory", "differently cased", "stored (uncompressed)", "[zip bytes]",
                "upload without")) {
            assertThat(all).as("an edit '%s' among %d mutants", kind, descriptions.size()).contains(kind);
        }
        assertThat(all).containsPattern("upload \\S+ as \\S+");
    }

    @Test
    void unmutatedSeedsArePackagedLikeTheirMutants() {
        Seed zipped = SEEDS.get("md5").stream().filter(Seed::zipped).findFirst().orElseThrow();
        Mutant m = Mutants.unmutated(zipped);
        assertThat(m.parts().keySet()).containsExactly("body.zip");
        assertThat(m.description()).isEqualTo("unmutated");
        Seed parts = SEEDS.get("gltf").stream().filter(s -> s.name().equals("external.gltf+bin")).findFirst().orElseThrow();
        assertThat(Mutants.unmutated(parts).parts().keySet()).containsExactly("strip.gltf", "strip.bin");
    }

    @Test
    void lengthLiesOverwriteOneLittleEndianIntegerMostlyAligned() {
        byte[] in = new byte[64];
        int unaligned = 0;
        for (int i = 0; i < 300; i++) {
            List<String> log = new ArrayList<>();
            byte[] out = ByteMutations.lieAboutLength(in, new SplittableRandom(i), log);
            assertThat(out).hasSize(64);
            int first = -1;
            int last = -1;
            for (int b = 0; b < 64; b++) {
                if (out[b] != 0) {
                    first = first < 0 ? b : first;
                    last = b;
                }
            }
            int width = Integer.parseInt(log.getFirst().replaceAll("length lie: u(\\d+) .*", "$1")) / 8;
            int at = Integer.parseInt(log.getFirst().replaceAll("length lie: u\\d+ at (\\d+) .*", "$1"));
            if (at % width != 0) {
                unaligned++;
            }
            if (first >= 0) {
                assertThat(first).isGreaterThanOrEqualTo(at);
                assertThat(last).isLessThan(at + width);
            }
        }
        // a third of the lies may land anywhere; three quarters of those (widths 2, 4, 8) are unaligned
        assertThat(unaligned).isBetween(40, 110);
    }
}
