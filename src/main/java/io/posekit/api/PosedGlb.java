package io.posekit.api;

import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
import io.posekit.export.Compression;
import io.posekit.export.GlbWriter;
import io.posekit.export.PosedMeshes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ContentDisposition;
import io.posekit.api.http.Reply;

/**
 * The {@code model/gltf-binary} responses of posed meshes: the instances posed at the sampled time, written by
 * {@link GlbWriter} with the sampling echoed in {@code asset.extras}, served inline with a file name.
 */
final class PosedGlb {

    private PosedGlb() {
    }

    /** The GLB of mesh instances {@code meshes} of {@code model} posed as {@code s} says. */
    static Reply response(String id, Model model, Sampling s, String filename, int... meshes) {
        return response(id, model, s, filename, Compression.NONE, meshes);
    }

    /** The GLB of mesh instances {@code meshes} of {@code model} posed as {@code s} says, stored as {@code compression} says. */
    static Reply response(String id, Model model, Sampling s, String filename, Compression compression, int... meshes) {
        float[] matrices = s.evaluate(model).modelMatrices();
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("asset", id);
        extras.put("clip", s.clipName());
        extras.put("time", s.time());
        extras.put("loop", s.loop().wireName());
        extras.put("localTime", s.localTime());
        if (s.layers() != null) {
            extras.put("layers", s.layers());
        }
        if (compression != Compression.NONE) {
            extras.put("compression", compression.wireName());
        }
        byte[] glb;
        try {
            glb = GlbWriter.write(PosedMeshes.of(model, matrices, s.morphWeights(model), meshes), extras, compression);
        } catch (IllegalArgumentException e) {
            // non-finite posed vertices (a degenerate pose of a hostile file) or a GLB over the format's limits
            throw new ApiException(org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, "Not writable as GLB",
                    e.getMessage());
        }
        return Reply.of(200, Negotiation.GLTF_BINARY, glb)
                .header("Content-Disposition", ContentDisposition.inline().filename(filename).build().toString());
    }
}
