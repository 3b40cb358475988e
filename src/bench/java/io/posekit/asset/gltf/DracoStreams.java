package io.posekit.asset.gltf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Draco streams of a GLB (every {@code KHR_draco_mesh_compression} primitive's bytes and the unique ids of its
 * attributes), for the decode measurements: the pipeline's gltf-transform {@code draco} variants
 * ({@code tools/gltf-pipeline/run.sh}, {@code -Dposekit.gltf-pipeline.dir}, default {@code target/gltf-pipeline}).
 */
record DracoStreams(byte[] glb, List<Stream> streams) {

    /** One primitive's stream: its bytes and the unique ids the extension names. */
    record Stream(byte[] bytes, Set<Integer> ids) {
    }

    /** The pipeline's {@code draco} variant of conformance asset {@code asset}. */
    static Path variant(String asset) {
        return Path.of(System.getProperty("posekit.gltf-pipeline.dir", "target/gltf-pipeline"), "conformance", "assets",
                "draco", asset, asset + ".glb");
    }

    /** The original (uncompressed) conformance asset {@code asset}. */
    static Path original(String asset) {
        return Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets", "gltf", asset,
                asset + ".glb");
    }

    static DracoStreams read(Path file) throws IOException {
        byte[] glb = Files.readAllBytes(file);
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        JsonNode root = JsonMapper.builder().build().readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int bin = 28 + jsonLength;
        List<Stream> streams = new ArrayList<>();
        for (JsonNode mesh : root.get("meshes")) {
            for (JsonNode prim : mesh.get("primitives")) {
                JsonNode ext = prim.path("extensions").path(DracoPrimitive.EXTENSION);
                if (ext.isMissingNode()) {
                    continue;
                }
                JsonNode view = root.get("bufferViews").get(ext.get("bufferView").asInt());
                int offset = bin + view.path("byteOffset").asInt(0);
                Set<Integer> ids = new LinkedHashSet<>();
                ext.get("attributes").forEach(id -> ids.add(id.asInt()));
                streams.add(new Stream(Arrays.copyOfRange(glb, offset, offset + view.get("byteLength").asInt()), ids));
            }
        }
        return new DracoStreams(glb, streams);
    }

    /** Decodes every stream through posekit's adapter; returns the number of points, to be consumed. */
    int decodeAll() {
        int points = 0;
        for (Stream s : streams) {
            DracoStreamHeader header = DracoStreamHeader.read(s.bytes(), 0, s.bytes().length, "bench");
            points += DracoDecoder.decode(s.bytes(), 0, s.bytes().length, header, s.ids(),
                    new io.posekit.asset.DecodeBudget(Long.MAX_VALUE), "bench").points();
        }
        return points;
    }
}
