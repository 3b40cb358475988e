package io.posekit.export;

import io.posekit.asset.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The figures of docs/export.md and docs/performance.md for {@code compress=draco}: for the conformance glTF models
 * named on the command line, the size of animated.glb and posed.glb (0.5 s into the first clip) under every
 * {@link Compression}, and the wall time of the Draco
 * export (the whole animated.glb) in this fresh JVM: the first, and the median and range of the next rounds.
 *
 * <pre>java -cp target/test-classes:target/classes:$(cat target/export-classpath.txt) \
 *     -Dposekit.conformance.dir=../shared/conformance io.posekit.export.DracoExportFigures 10 gltf-BrainStem gltf-Fox</pre>
 */
public final class DracoExportFigures {

    private DracoExportFigures() {
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        List<String> ids = Arrays.asList(args).subList(1, args.length);
        for (ConformanceAssets.Asset a : ConformanceAssets.all()) {
            if (!ids.contains(a.id())) {
                continue;
            }
            Model model = ConformanceAssets.importModel(a.files());
            StringBuilder sizes = new StringBuilder();
            for (Compression c : Compression.values()) {
                AnimatedGltf.Options o = new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE, c);
                sizes.append(c.wireName()).append(' ').append(AnimatedGltf.of(model, o).glb().length).append("  ");
            }
            float[] matrices = io.posekit.sampling.Pose.evaluate(model.rig(),
                    model.clips().isEmpty() ? null : model.clips().getFirst(), 0.5).modelMatrices();
            sizes.append(" posed.glb bytes: ");
            for (Compression c : Compression.values()) {
                sizes.append(c.wireName()).append(' ')
                        .append(GlbWriter.write(PosedMeshes.all(model, matrices), null, c).length).append("  ");
            }
            AnimatedGltf.Options draco = new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE,
                    Compression.DRACO);
            AnimatedGltf.Options none = new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE,
                    Compression.NONE);
            List<Double> ms = new ArrayList<>();
            List<Double> plain = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                AnimatedGltf.of(model, draco).glb();
                long t1 = System.nanoTime();
                AnimatedGltf.of(model, none).glb();
                long t2 = System.nanoTime();
                ms.add((t1 - t0) / 1e6);
                plain.add((t2 - t1) / 1e6);
            }
            List<Double> warm = new ArrayList<>(ms.subList(1, ms.size()));
            warm.sort(null);
            List<Double> warmPlain = new ArrayList<>(plain.subList(1, plain.size()));
            warmPlain.sort(null);
            System.out.printf("%s: animated.glb bytes: %s%n", a.id(), sizes);
            System.out.printf("%s: draco export first %.0f ms (the second %.0f), warm median %.0f ms (%.0f–%.0f) over %d"
                    + " rounds; uncompressed export warm median %.0f ms%n", a.id(), ms.get(0), ms.get(1),
                    warm.get(warm.size() / 2), warm.getFirst(), warm.getLast(), warm.size(),
                    warmPlain.get(warmPlain.size() / 2));
        }
    }
}
