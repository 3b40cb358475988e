package io.posekit.api;

import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.export.AnimatedGltf;
import io.posekit.export.Coordinates;
import io.posekit.store.AssetRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The whole asset as an animated glTF 2.0 asset — skeleton, skins, meshes, materials, morph targets and its clips —
 * as a GLB ({@code /api/v1/assets/{id}/animated.glb}) or as glTF JSON with the buffer embedded
 * ({@code …/animated.gltf}); see {@link AnimatedGltf}. Query: {@code clips} (clip names, comma-separated or repeated;
 * default every clip), {@code fps} (resample every transform channel on this grid, {@code 0 < fps ≤ }
 * {@value #MAX_FPS}), {@code tolerance} (the key reduction's rotation tolerance in radians,
 * {@code 0 ≤ tolerance ≤ } {@value #MAX_TOLERANCE}; default 1e-4), {@code compress} ({@code none}, {@code quantize}
 * or {@code meshopt}: {@link io.posekit.export.Compression}; default none), {@code coordinates} ({@code gltf}, the
 * default: the file's model space converted to glTF's metres and Y-up by a root node; {@code file}: as it is). What
 * the resampling did is in the headers
 * {@code Posekit-Resampled-Keys} and {@code Posekit-Max-Error}. Written on the worker pool.
 */
@Component
class AnimatedGltfRoutes implements ApiRoutes {

    static final String GLTF_JSON = "model/gltf+json";
    static final double MAX_FPS = 1000;
    static final double MAX_TOLERANCE = 1;
    static final String[] QUERY = {"clips", "fps", "tolerance", "compress", "coordinates"};

    private final AssetRepository assets;

    AnimatedGltfRoutes(AssetRepository assets) {
        this.assets = assets;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/api/v1/assets/{id}/animated.glb").scope(Scope.READ).query(QUERY).repeatable("clips").produces(Negotiation.GLTF_BINARY).immutable()
                .handle(e -> answer(e, true));
        routes.get("/api/v1/assets/{id}/animated.gltf").scope(Scope.READ).query(QUERY).repeatable("clips").produces(GLTF_JSON).immutable()
                .handle(e -> answer(e, false));
    }

    private Reply answer(Exchange e, boolean binary) {
        String id = e.variable("id");
        Model model = Assets.require(assets, e, id).model();
        AnimatedGltf.Options options = new AnimatedGltf.Options(clips(model, e.queryAll("clips")),
                number(e.query("fps"), "fps", 0, false, MAX_FPS),
                orDefault(number(e.query("tolerance"), "tolerance", 0, true, MAX_TOLERANCE)),
                PosedGlbRoutes.compression(e.query("compress")),
                SamplingRoutes.coordinates(e.query("coordinates"), Coordinates.GLTF));
        AnimatedGltf export;
        byte[] body;
        try {
            export = AnimatedGltf.of(model, options);
            body = binary ? export.glb() : export.gltf();
        } catch (IllegalArgumentException x) {
            // nothing to export, a clip too long to resample at that rate, or past the format's size
            throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Not exportable", "asset '" + id + "': "
                    + x.getMessage());
        }
        AnimatedGltf.Report report = export.report();
        String filename = binary ? "animated.glb" : "animated.gltf";
        return Reply.of(200, binary ? Negotiation.GLTF_BINARY : GLTF_JSON, body)
                .header("Content-Disposition", ContentDisposition.attachment().filename(filename).build().toString())
                .header("Posekit-Resampled-Keys", "before=" + report.keysBefore() + ", after=" + report.keysAfter())
                .header("Posekit-Max-Error", String.format(Locale.ROOT, "rotation=%.3g; translation=%.3g; scale=%.3g",
                        report.maxRotationError(), report.maxTranslationError(), report.maxScaleError()));
    }

    private static double orDefault(Double tolerance) {
        return tolerance == null ? AnimatedGltf.Options.DEFAULT_TOLERANCE : tolerance;
    }

    /**
     * The clips asked for: each value a clip name, or clip names separated by commas; {@code null} (every clip) when
     * none is given.
     *
     * @throws ApiException 404 naming a clip the asset does not have
     */
    static List<String> clips(Model model, List<String> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String value : values) {
            List<String> names = has(model, value) ? List.of(value) : List.of(value.split(",", -1));
            for (String name : names) {
                String trimmed = name.strip();
                if (!has(model, trimmed)) {
                    throw ApiException.notFound("Unknown clip", "the asset has no clip named '" + trimmed + "'");
                }
                if (!out.contains(trimmed)) {
                    out.add(trimmed);
                }
            }
        }
        return out;
    }

    private static boolean has(Model model, String name) {
        for (Clip c : model.clips()) {
            if (c.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A number parameter, or {@code null} when absent.
     *
     * @throws ApiException 400 when it is not a finite number in range ({@code min} included when {@code minIncluded})
     */
    static Double number(String text, String name, double min, boolean minIncluded, double max) {
        if (text == null) {
            return null;
        }
        double v;
        try {
            v = Double.parseDouble(text.strip());
        } catch (NumberFormatException x) {
            throw ApiException.badRequest("Invalid " + name, name + " '" + text + "' is not a number");
        }
        if (!Double.isFinite(v) || v < min || (!minIncluded && v == min) || v > max) {
            throw ApiException.badRequest("Invalid " + name, name + " " + text + " is out of range: it must be "
                    + (minIncluded ? "≥ " : "> ") + fmt(min) + " and ≤ " + fmt(max));
        }
        return v;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
