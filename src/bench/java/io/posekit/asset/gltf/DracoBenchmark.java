package io.posekit.asset.gltf;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Warm Draco decoding (issue 40), on the gltf-transform {@code draco} variants of the pipeline
 * ({@link DracoStreams}): {@link #decode} every Draco stream of the file through {@link DracoDecoder} (divide by the
 * primitive count for a primitive's cost); {@link #importDraco} the whole glTF import of the Draco file and
 * {@link #importOriginal} of the original, the difference being what Draco costs an upload's parse. Milliseconds.
 * The cold figures (first decode in a fresh JVM, class loading) are {@link DracoColdStart}'s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DracoBenchmark {

    @Param({"Fox", "CesiumMan", "BrainStem"})
    String asset;

    private DracoStreams streams;
    private SourceFile draco;
    private SourceFile original;

    @Setup
    public void setUp() throws IOException {
        streams = DracoStreams.read(DracoStreams.variant(asset));
        draco = new SourceFile(asset + ".glb", streams.glb());
        original = new SourceFile(asset + ".glb", Files.readAllBytes(DracoStreams.original(asset)));
    }

    @Benchmark
    public int decode() {
        return streams.decodeAll();
    }

    @Benchmark
    public int importDraco() {
        return new GltfImporter().read(draco, new SourceFiles(List.of(draco)), ImportLimits.DEFAULT).meshes().size();
    }

    @Benchmark
    public int importOriginal() {
        return new GltfImporter().read(original, new SourceFiles(List.of(original)), ImportLimits.DEFAULT).meshes()
                .size();
    }
}
