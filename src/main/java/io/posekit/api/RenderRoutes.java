package io.posekit.api;

import io.posekit.api.body.SamplingQuery;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.render.Camera;
import io.posekit.render.ClipFrames;
import io.posekit.render.GifEncoder;
import io.posekit.render.PngEncoder;
import io.posekit.render.PosedScene;
import io.posekit.render.Rasteriser;
import io.posekit.render.RenderBusyException;
import io.posekit.render.RenderPool;
import io.posekit.render.RgbaImage;
import io.posekit.render.View;
import io.posekit.store.AssetRepository;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Pictures drawn by posekit's own CPU renderer ({@link Rasteriser}): {@code render.png} (the posed asset at one
 * time), {@code preview.gif} (a clip, animated and looping) and {@code frames.png} (the same frames as a sprite sheet,
 * the grid and times in headers). The camera looks from {@code view} at the box the whole clip fills (every key time
 * and a 30 Hz grid, {@link PosedScene#clipBox}; for a blend, or without a clip, the box of the pose drawn), with a
 * {@value #FOV}° vertical field of view, the box taking at most {@value #FILL} of the picture; one camera for all
 * frames of a clip. Its parameters are echoed in {@value #CAMERA_HEADER}. Drawn on the render pool ({@link RenderPool});
 * when it is saturated: 503 with {@code Retry-After}.
 */
@Component
class RenderRoutes implements ApiRoutes {

    static final String PNG = "image/png";
    static final String GIF = "image/gif";
    static final String CAMERA_HEADER = "Posekit-Camera";
    static final String FRAMES_HEADER = "Posekit-Frames";
    static final String GRID_HEADER = "Posekit-Grid";
    static final String FRAME_SIZE_HEADER = "Posekit-Frame-Size";
    static final String TIMES_HEADER = "Posekit-Frame-Times";
    static final double FOV = 40;
    static final double FILL = 0.9;
    static final int PNG_SIZE = 512;
    static final int ANIMATION_SIZE = 256;
    static final double FPS = 15;
    static final double MAX_FPS = 60;
    /** The most frames of one preview or sprite sheet. */
    static final int MAX_FRAMES = 600;
    /**
     * The most pixels of all frames of one preview or sprite sheet together (4 pictures of 2048²): the frames are held
     * until the palette is known (GIF) or the sheet is assembled, 4 bytes a pixel, twice for a sheet.
     */
    static final long MAX_PIXELS = 4L * 2048 * 2048;
    /** Clip boxes kept (asset and clip), so a clip is not posed over again for every picture of it. */
    static final int BOXES = 256;
    private static final String[] PICTURE = {"width", "height", "view", "background"};

    private final AssetRepository assets;
    private final RenderPool pool;
    private final Map<String, float[][]> boxes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[][]> eldest) {
            return size() > BOXES;
        }
    };

    RenderRoutes(AssetRepository assets, RenderPool pool) {
        this.assets = assets;
        this.pool = pool;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/api/v1/assets/{id}/render.png").scope(Scope.READ).query(SamplingRoutes.with(SamplingRoutes.SAMPLING, PICTURE)).repeatable("layer")
                .produces(PNG).immutable().handle(this::png);
        routes.get("/api/v1/assets/{id}/preview.gif").scope(Scope.READ).query(SamplingRoutes.with(PICTURE, "clip", "fps"))
                .produces(GIF).immutable().handle(e -> animation(e, false));
        routes.get("/api/v1/assets/{id}/frames.png").scope(Scope.READ).query(SamplingRoutes.with(PICTURE, "clip", "fps", "columns"))
                .produces(PNG).immutable().handle(e -> animation(e, true));
    }

    private Reply png(Exchange e) {
        String id = e.variable("id");
        Model model = Assets.require(assets, e, id).model();
        Sampling s = Sampling.parse(model, SamplingRoutes.query(e));
        Picture p = Picture.parse(e, PNG_SIZE);
        Camera[] camera = new Camera[1];
        byte[] png = render(r -> {
            float[] matrices = s.evaluate(model).modelMatrices();
            float[][] box = s.clip() != null && s.blend() == null ? clipBox(id, model, s.clip())
                    : PosedScene.poseBox(model, matrices, s.morphWeights(model));
            camera[0] = p.camera(box);
            RgbaImage image = r.render(PosedScene.surfaces(model, matrices, s.morphWeights(model)), camera[0], p.width,
                    p.height, p.background);
            return PngEncoder.encode(image);
        });
        return Reply.of(200, PNG, png).header(CAMERA_HEADER, cameraJson(camera[0]));
    }

    private Reply animation(Exchange e, boolean sheet) {
        String id = e.variable("id");
        Model model = Assets.require(assets, e, id).model();
        Sampling s = Sampling.parse(model, SamplingQuery.of(e.query("clip"), null));
        Picture p = Picture.parse(e, ANIMATION_SIZE);
        double fps = FPS;
        String fpsParam = e.query("fps");
        if (fpsParam != null && !fpsParam.isEmpty()) {
            try {
                fps = Double.parseDouble(fpsParam);
            } catch (NumberFormatException x) {
                fps = Double.NaN;
            }
            if (!(fps > 0 && fps <= MAX_FPS)) {
                throw ApiException.badRequest("Invalid fps", "fps '" + fpsParam + "' is not a number of frames per"
                        + " second above 0 and at most " + (int) MAX_FPS);
            }
        }
        Clip clip = s.clip();
        int count = ClipFrames.count(clip, fps);
        if (count > MAX_FRAMES || (long) count * p.width * p.height > MAX_PIXELS) {
            throw ApiException.badRequest("Too many frames", "the clip at fps " + fmt(fps) + " has " + count
                    + " frames of " + p.width + "×" + p.height + "; at most " + MAX_FRAMES + " frames and " + MAX_PIXELS
                    + " pixels in all: lower fps, width or height");
        }
        int columns = sheet ? columns(e.query("columns"), count) : 0;
        if (sheet && ((long) columns * p.width > 16384 || (long) ((count + columns - 1) / columns) * p.height > 16384)) {
            throw ApiException.badRequest("Invalid columns", "a sheet of " + columns + " columns of " + count
                    + " frames would be larger than 16384 pixels one way");
        }
        double[] times = ClipFrames.times(clip, fps, count);
        double rate = fps;
        Camera[] camera = new Camera[1];
        byte[] body = render(r -> {
            float[][] box = clip != null ? clipBox(id, model, clip)
                    : PosedScene.poseBox(model, s.evaluate(model).modelMatrices(), null);
            camera[0] = p.camera(box);
            List<RgbaImage> frames = ClipFrames.render(r, model, clip, times, camera[0], p.width, p.height,
                    p.background);
            if (!sheet) {
                return GifEncoder.encode(frames, ClipFrames.delays(rate, count));
            }
            int rows = (count + columns - 1) / columns;
            RgbaImage all = RgbaImage.blank(columns * p.width, rows * p.height);
            for (int i = 0; i < count; i++) {
                all.paste(frames.get(i), i % columns * p.width, i / columns * p.height);
            }
            return PngEncoder.encode(all);
        });
        StringBuilder t = new StringBuilder();
        for (double time : times) {
            // to the microsecond: the header stays short (proxies cap response headers at a few KB)
            t.append(t.isEmpty() ? "" : ",").append(java.math.BigDecimal.valueOf(time)
                    .setScale(6, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString());
        }
        Reply reply = Reply.of(200, sheet ? PNG : GIF, body).header(CAMERA_HEADER, cameraJson(camera[0]))
                .header(FRAMES_HEADER, count).header(FRAME_SIZE_HEADER, p.width + "x" + p.height)
                .header(TIMES_HEADER, t.toString());
        if (sheet) {
            reply.header(GRID_HEADER, columns + "x" + (count + columns - 1) / columns);
        }
        return reply;
    }

    private static int columns(String param, int count) {
        if (param == null || param.isEmpty()) {
            return (int) Math.ceil(Math.sqrt(count));
        }
        try {
            int c = Integer.parseInt(param);
            if (c >= 1) {
                return Math.min(c, count);
            }
        } catch (NumberFormatException x) {
            // reported below
        }
        throw ApiException.badRequest("Invalid columns", "columns '" + param + "' is not a whole number ≥ 1");
    }

    private <T> T render(Function<Rasteriser, T> work) {
        try {
            return pool.run(work);
        } catch (RenderBusyException busy) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Server busy", busy.getMessage())
                    .withHeader("Retry-After", Long.toString(Math.max(1, busy.retryAfter().toSeconds())));
        }
    }

    private float[][] clipBox(String id, Model model, Clip clip) {
        String key = id + '\u0000' + model.clips().indexOf(clip);
        synchronized (boxes) {
            float[][] box = boxes.get(key);
            if (box != null) {
                return box;
            }
        }
        float[][] box = PosedScene.clipBox(model, clip);
        synchronized (boxes) {
            boxes.put(key, box);
        }
        return box;
    }

    /** The camera as JSON: eye, target, up (model space), fovY (degrees), aspect, near, far. */
    static String cameraJson(Camera c) {
        return "{\"eye\":" + vector(c.eye()) + ",\"target\":" + vector(c.target()) + ",\"up\":" + vector(c.up())
                + ",\"fovY\":" + fmt(c.fovY()) + ",\"aspect\":" + fmt(c.aspect()) + ",\"near\":" + fmt(c.near())
                + ",\"far\":" + fmt(c.far()) + "}";
    }

    private static String vector(double[] v) {
        return "[" + fmt(v[0]) + "," + fmt(v[1]) + "," + fmt(v[2]) + "]";
    }

    /** A number as JSON, shortest round-trip form of the double (no exponent for the usual magnitudes). */
    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * The picture parameters: {@code width} and {@code height} (pixels, 1..2048, default {@code size}), {@code view}
     * (default three-quarter) and {@code background} ({@code transparent}, the default, or an sRGB colour
     * {@code rrggbb} / {@code #rrggbb}).
     */
    private record Picture(int width, int height, View view, int background) {

        static Picture parse(Exchange e, int size) {
            int w = size(e.query("width"), "width", size);
            int h = size(e.query("height"), "height", size);
            View view = View.THREE_QUARTER;
            String v = e.query("view");
            if (v != null && !v.isEmpty()) {
                try {
                    view = View.parse(v);
                } catch (IllegalArgumentException x) {
                    throw ApiException.badRequest("Invalid view", x.getMessage());
                }
            }
            return new Picture(w, h, view, background(e.query("background")));
        }

        Camera camera(float[][] box) {
            return Camera.framing(box == null ? null : box[0], box == null ? null : box[1], view, FOV,
                    (double) width / height, FILL);
        }

        private static int size(String param, String name, int fallback) {
            if (param == null || param.isEmpty()) {
                return fallback;
            }
            int n;
            try {
                n = Integer.parseInt(param);
            } catch (NumberFormatException x) {
                throw ApiException.badRequest("Invalid " + name, name + " '" + param + "' is not a whole number of"
                        + " pixels");
            }
            if (n < 1 || n > Rasteriser.MAX_SIZE) {
                throw ApiException.badRequest("Invalid " + name, name + " " + n + " is not within 1.."
                        + Rasteriser.MAX_SIZE + " pixels");
            }
            return n;
        }

        private static int background(String param) {
            if (param == null || param.isEmpty() || param.equals("transparent")) {
                return 0;
            }
            String hex = param.startsWith("#") ? param.substring(1) : param;
            if (hex.length() == 6 && hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return 0xFF000000 | Integer.parseInt(hex, 16);
            }
            throw ApiException.badRequest("Invalid background", "background '" + param + "' is not transparent or"
                    + " an sRGB colour rrggbb (e.g. ffffff or #1d2129)");
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "RenderRoutes[%d render threads, %d waiting]", pool.threads(), pool.queue());
    }
}
