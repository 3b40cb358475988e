package io.posekit.render;

import io.posekit.skinning.Material;
import io.posekit.skinning.PrimitiveMode;
import io.posekit.skinning.Primitive;
import java.util.Arrays;
import java.util.List;

/**
 * Draws triangles of posed primitives into an RGBA picture on the CPU.
 *
 * <p><b>Pipeline.</b> Vertices are projected with the camera's {@link Camera#viewProjection()} and snapped to
 * 1/{@value #SUB} pixel. Each triangle is culled when it faces away (glTF's counter-clockwise front faces) unless its
 * material is double-sided, then rasterised with integer edge functions stepped incrementally over its bounding box,
 * with the top-left fill rule, so triangles sharing an edge cover each sample exactly once. Coverage and depth are
 * resolved at {@value #SAMPLES} samples per pixel (the rotated-grid pattern of Direct3D's 4× multisampling); each
 * sample keeps the nearest triangle (depth = NDC z, interpolated linearly in screen space, which is exact for a
 * perspective projection). Shading is deferred: once every triangle is in, each pixel is shaded once per distinct
 * triangle among its samples, at that triangle's first covered sample, and the samples are averaged in linear light.
 * Attributes (normals, texture coordinates, vertex colours) are interpolated perspective-correctly (barycentrics
 * weighted by 1/w).
 *
 * <p><b>Surface.</b> Colour = base colour factor × vertex colour ({@code COLOR_0}) × base colour texture (sampled with
 * the coordinate set the material names, through its {@code KHR_texture_transform}; bilinear, repeat wrapping, sRGB
 * decoded to linear), all linear; then lit (not an unlit material, {@code KHR_materials_unlit}: its colour as it is),
 * plus the emissive colour × {@code KHR_materials_emissive_strength}, as a viewer adds it; then encoded to sRGB. Alpha modes are not applied
 * (every surface is drawn opaque); the picture's alpha is the share of covered samples (0, 64, 128, 191 or 255) on
 * a transparent background.
 *
 * <p><b>Light</b>, fixed to the camera so every view is lit the same way (directions in camera space, x right, y up,
 * z towards the viewer): {@code light = 0.30 + 0.85 · max(0, n·key) + 0.35 · max(0, n·fill)} with key from the upper
 * left front {@code (−0.4, 0.6, 0.7)} and fill from the right {@code (0.6, −0.1, 0.5)} (normalised), n the
 * interpolated normal (turned towards the viewer on the back of a double-sided surface), or the face normal facing
 * the viewer where the primitive has no normals. No specular term or shadows.
 *
 * <p>Pictures wider or taller than fit {@value #BAND_PIXELS} pixels are drawn in horizontal bands, each band
 * rasterising the triangles that reach it, so the sample buffers stay bounded whatever the size.
 *
 * <p>Mutable: keeps its buffers from one picture to the next (no allocation per triangle or pixel, and none at all
 * once the buffers have grown). Not thread-safe: one per thread.
 */
public final class Rasteriser {

    /** Largest width and height, pixels. */
    public static final int MAX_SIZE = 2048;
    /** Samples per pixel. */
    public static final int SAMPLES = 4;
    /** Sub-pixel precision: vertex positions are snapped to 1/SUB pixel. */
    static final int SUB = 16;
    /** Sample positions inside a pixel, in 1/SUB pixel from its top-left corner (Direct3D's 4× pattern). */
    static final int[] SAMPLE_X = {6, 14, 2, 10};
    static final int[] SAMPLE_Y = {2, 6, 10, 14};
    /** The most pixels of one band. */
    static final int BAND_PIXELS = 512 * 512;
    /** Vertices further than this outside the picture (pixels) drop their triangles (the framing never puts any there). */
    static final float GUARD = 16384;
    static final float AMBIENT = 0.30f;
    static final float KEY = 0.85f;
    static final float FILL = 0.35f;
    static final double[] KEY_DIRECTION = unit(-0.4, 0.6, 0.7);
    static final double[] FILL_DIRECTION = unit(0.6, -0.1, 0.5);

    // per vertex, all primitives after one another
    private float[] screenX = new float[0];
    private float[] screenY = new float[0];
    private int[] fixedX = new int[0];
    private int[] fixedY = new int[0];
    private float[] depthZ = new float[0];
    private float[] inverseW = new float[0];
    // per triangle kept: vertex indices (ordered so the raster area is positive), primitive·2 + back-facing, rows
    private int[] triangles = new int[0];
    private int[] triangleInfo = new int[0];
    private int triangleCount;
    // per sample of the current band
    private float[] depth = new float[0];
    private int[] ids = new int[0];
    private Prim[] prims = new Prim[0];

    private int width;
    private int height;
    private float keyX, keyY, keyZ, fillX, fillY, fillZ;
    private double eyeX, eyeY, eyeZ;
    // the last shade() result, linear RGB
    private float red, green, blue;

    /** What one primitive contributes to shading. */
    private static final class Prim {
        int offset;
        float[] positions;
        float[] normals;
        float[] uvs;
        float[] colors;
        float baseR, baseG, baseB;
        // emissive colour × strength, linear, added after lighting; unlit: the colour is drawn without lighting
        float emissiveR, emissiveG, emissiveB;
        boolean unlit;
        TextureImage texture;
        boolean doubleSided;
    }

    /**
     * Draws {@code surfaces} as {@code camera} sees them into a new {@code width × height} picture.
     *
     * @param background {@code 0xAARRGGBB}: alpha 0 for a transparent background, otherwise the opaque sRGB colour
     *     behind the surfaces (its alpha is ignored)
     * @throws IllegalArgumentException when a size is not within 1..{@value #MAX_SIZE}
     */
    public RgbaImage render(List<Surface> surfaces, Camera camera, int width, int height, int background) {
        RgbaImage out = RgbaImage.blank(checkSize(width, "width"), checkSize(height, "height"));
        this.width = width;
        this.height = height;
        setUpLights(camera);
        triangleCount = 0;
        ensurePrims(surfaces.size());
        double[] m = camera.viewProjection();
        int vertices = 0;
        for (Surface s : surfaces) {
            vertices += s.source().vertexCount();
        }
        ensureVertices(vertices);
        int offset = 0;
        for (int p = 0; p < surfaces.size(); p++) {
            Surface s = surfaces.get(p);
            Prim prim = prims[p];
            describe(prim, s, offset);
            project(s.posed().positions(), s.source().vertexCount(), offset, m);
            addTriangles(s.source(), offset, p, prim.doubleSided);
            offset += s.source().vertexCount();
        }
        int bandRows = Math.max(1, Math.min(height, BAND_PIXELS / width));
        ensureBand(width * bandRows);
        for (int y0 = 0; y0 < height; y0 += bandRows) {
            int y1 = Math.min(height, y0 + bandRows);
            int samples = SAMPLES * width * (y1 - y0);
            Arrays.fill(depth, 0, samples, Float.POSITIVE_INFINITY);
            Arrays.fill(ids, 0, samples, 0);
            for (int t = 0; t < triangleCount; t++) {
                raster(t, y0, y1);
            }
            resolve(out.rgba(), y0, y1, background);
        }
        return out;
    }

    private static int checkSize(int size, String what) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException(what + " " + size + " is not within 1.." + MAX_SIZE);
        }
        return size;
    }

    private void setUpLights(Camera camera) {
        double[] v = camera.viewMatrix();
        // rows of the view matrix: the camera's x, y, z axes in model space
        double[] key = toModel(v, KEY_DIRECTION);
        double[] fill = toModel(v, FILL_DIRECTION);
        keyX = (float) key[0];
        keyY = (float) key[1];
        keyZ = (float) key[2];
        fillX = (float) fill[0];
        fillY = (float) fill[1];
        fillZ = (float) fill[2];
        double[] eye = camera.eye();
        eyeX = eye[0];
        eyeY = eye[1];
        eyeZ = eye[2];
    }

    private static double[] toModel(double[] view, double[] d) {
        return new double[] {view[0] * d[0] + view[1] * d[1] + view[2] * d[2],
            view[4] * d[0] + view[5] * d[1] + view[6] * d[2], view[8] * d[0] + view[9] * d[1] + view[10] * d[2]};
    }

    private void describe(Prim prim, Surface s, int offset) {
        Primitive source = s.source();
        Material material = source.material() == null ? Material.DEFAULT : source.material();
        float[] factor = material.baseColorFactor();
        prim.offset = offset;
        prim.positions = s.posed().positions();
        prim.normals = s.posed().normals();
        prim.colors = source.colors();
        prim.baseR = factor[0];
        prim.baseG = factor[1];
        prim.baseB = factor[2];
        prim.doubleSided = material.doubleSided();
        // the image is sampled with the coordinate set the material names (glTF texCoord)
        List<float[]> sets = source.texcoordSets();
        float[] uvs = material.baseColorTexCoord() < sets.size() ? sets.get(material.baseColorTexCoord()) : null;
        prim.texture = uvs == null ? null : TextureImage.of(material.baseColorTexture());
        // KHR_texture_transform is affine, so transforming the vertices' coordinates transforms every interpolated one
        Material.TextureTransform transform = material.baseColorTransform();
        prim.uvs = prim.texture == null ? null : transform == null ? uvs : transform.apply(uvs);
        float[] emissive = material.emissive();
        prim.emissiveR = emissive[0];
        prim.emissiveG = emissive[1];
        prim.emissiveB = emissive[2];
        prim.unlit = material.unlit();
    }

    private void project(float[] positions, int n, int offset, double[] m) {
        float halfW = width * 0.5f;
        float halfH = height * 0.5f;
        for (int v = 0; v < n; v++) {
            double x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
            double cw = m[3] * x + m[7] * y + m[11] * z + m[15];
            int o = offset + v;
            fixedX[o] = Integer.MIN_VALUE;
            if (!(cw > 1e-12) || !Double.isFinite(cw)) {
                continue; // behind the eye (or not a number): its triangles are dropped
            }
            double inv = 1 / cw;
            double sx = ((m[0] * x + m[4] * y + m[8] * z + m[12]) * inv + 1) * halfW;
            double sy = (1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) * inv) * halfH;
            if (!(Math.abs(sx - halfW) < GUARD && Math.abs(sy - halfH) < GUARD)) {
                continue;
            }
            int fx = (int) Math.round(sx * SUB);
            int fy = (int) Math.round(sy * SUB);
            fixedX[o] = fx;
            fixedY[o] = fy;
            screenX[o] = (float) fx / SUB;
            screenY[o] = (float) fy / SUB;
            depthZ[o] = (float) ((m[2] * x + m[6] * y + m[10] * z + m[14]) * inv);
            inverseW[o] = (float) inv;
        }
    }

    private void addTriangles(Primitive p, int offset, int prim, boolean doubleSided) {
        int[] idx = p.indices();
        int n = idx == null ? p.vertexCount() : idx.length;
        PrimitiveMode mode = p.mode();
        int count = switch (mode) {
            case TRIANGLES -> n / 3;
            case TRIANGLE_STRIP, TRIANGLE_FAN -> Math.max(0, n - 2);
            default -> 0; // points and lines have no area
        };
        ensureTriangles(triangleCount + count);
        for (int i = 0; i < count; i++) {
            int a, b, c;
            switch (mode) {
                case TRIANGLES -> {
                    a = 3 * i;
                    b = a + 1;
                    c = a + 2;
                }
                case TRIANGLE_STRIP -> { // every other triangle reversed, so all keep the strip's winding
                    a = i;
                    b = i + 1 + (i & 1);
                    c = i + 2 - (i & 1);
                }
                default -> {
                    a = 0;
                    b = i + 1;
                    c = i + 2;
                }
            }
            if (idx != null) {
                a = idx[a];
                b = idx[b];
                c = idx[c];
            }
            addTriangle(offset + a, offset + b, offset + c, prim, doubleSided);
        }
    }

    private void addTriangle(int a, int b, int c, int prim, boolean doubleSided) {
        if (fixedX[a] == Integer.MIN_VALUE || fixedX[b] == Integer.MIN_VALUE || fixedX[c] == Integer.MIN_VALUE) {
            return;
        }
        long ax = fixedX[a], ay = fixedY[a], bx = fixedX[b], by = fixedY[b], cx = fixedX[c], cy = fixedY[c];
        long area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        if (area == 0) {
            return;
        }
        // y points down the picture, so glTF's counter-clockwise front faces have a negative area here
        boolean back = area > 0;
        if (back && !doubleSided) {
            return;
        }
        int minX = (int) Math.min(ax, Math.min(bx, cx)) >> 4;
        int maxX = (int) Math.max(ax, Math.max(bx, cx)) >> 4;
        int minY = (int) Math.min(ay, Math.min(by, cy)) >> 4;
        int maxY = (int) Math.max(ay, Math.max(by, cy)) >> 4;
        if (maxX < 0 || maxY < 0 || minX >= width || minY >= height) {
            return;
        }
        int t = triangleCount++;
        triangles[3 * t] = a;
        triangles[3 * t + 1] = back ? b : c;
        triangles[3 * t + 2] = back ? c : b;
        triangleInfo[2 * t] = prim << 1 | (back ? 1 : 0);
        triangleInfo[2 * t + 1] = Math.max(0, minY) << 16 | Math.min(height - 1, maxY);
    }

    /** Rasterises triangle {@code t} into the rows {@code y0 ≤ y < y1} (the current band). */
    private void raster(int t, int y0, int y1) {
        int rows = triangleInfo[2 * t + 1];
        int top = Math.max(y0, rows >>> 16);
        int bottom = Math.min(y1 - 1, rows & 0xFFFF);
        if (top > bottom) {
            return;
        }
        int a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
        long ax = fixedX[a], ay = fixedY[a], bx = fixedX[b], by = fixedY[b], cx = fixedX[c], cy = fixedY[c];
        int left = Math.max(0, (int) Math.min(ax, Math.min(bx, cx)) >> 4);
        int right = Math.min(width - 1, (int) Math.max(ax, Math.max(bx, cx)) >> 4);
        // edge functions E(p) = A·px + B·py + C, ≥ 0 inside (the vertices are ordered so the area is positive)
        long a0 = ay - by, b0 = bx - ax, c0 = -(a0 * ax + b0 * ay) - (topLeft(ax, ay, bx, by) ? 0 : 1);
        long a1 = by - cy, b1 = cx - bx, c1 = -(a1 * bx + b1 * by) - (topLeft(bx, by, cx, cy) ? 0 : 1);
        long a2 = cy - ay, b2 = ax - cx, c2 = -(a2 * cx + b2 * cy) - (topLeft(cx, cy, ax, ay) ? 0 : 1);
        // depth plane over pixel coordinates
        double xa = ax / (double) SUB, ya = ay / (double) SUB;
        double xb = bx / (double) SUB - xa, yb = by / (double) SUB - ya;
        double xc = cx / (double) SUB - xa, yc = cy / (double) SUB - ya;
        double det = xb * yc - yb * xc;
        double za = depthZ[a], zb = depthZ[b] - za, zc = depthZ[c] - za;
        double zdx = (zb * yc - zc * yb) / det;
        double zdy = (zc * xb - zb * xc) / det;
        long o00 = a0 * SAMPLE_X[0] + b0 * SAMPLE_Y[0], o01 = a1 * SAMPLE_X[0] + b1 * SAMPLE_Y[0],
                o02 = a2 * SAMPLE_X[0] + b2 * SAMPLE_Y[0];
        long o10 = a0 * SAMPLE_X[1] + b0 * SAMPLE_Y[1], o11 = a1 * SAMPLE_X[1] + b1 * SAMPLE_Y[1],
                o12 = a2 * SAMPLE_X[1] + b2 * SAMPLE_Y[1];
        long o20 = a0 * SAMPLE_X[2] + b0 * SAMPLE_Y[2], o21 = a1 * SAMPLE_X[2] + b1 * SAMPLE_Y[2],
                o22 = a2 * SAMPLE_X[2] + b2 * SAMPLE_Y[2];
        long o30 = a0 * SAMPLE_X[3] + b0 * SAMPLE_Y[3], o31 = a1 * SAMPLE_X[3] + b1 * SAMPLE_Y[3],
                o32 = a2 * SAMPLE_X[3] + b2 * SAMPLE_Y[3];
        float zo0 = (float) ((zdx * SAMPLE_X[0] + zdy * SAMPLE_Y[0]) / SUB);
        float zo1 = (float) ((zdx * SAMPLE_X[1] + zdy * SAMPLE_Y[1]) / SUB);
        float zo2 = (float) ((zdx * SAMPLE_X[2] + zdy * SAMPLE_Y[2]) / SUB);
        float zo3 = (float) ((zdx * SAMPLE_X[3] + zdy * SAMPLE_Y[3]) / SUB);
        long step0 = a0 * SUB, step1 = a1 * SUB, step2 = a2 * SUB;
        float zStep = (float) zdx;
        long px = (long) left * SUB;
        float[] depth = this.depth;
        int[] ids = this.ids;
        int id = t + 1;
        int w = width;
        for (int y = top; y <= bottom; y++) {
            long py = (long) y * SUB;
            long e0 = a0 * px + b0 * py + c0;
            long e1 = a1 * px + b1 * py + c1;
            long e2 = a2 * px + b2 * py + c2;
            float z = (float) (za + zdx * (left - xa) + zdy * (y - ya));
            int i = SAMPLES * ((y - y0) * w + left);
            for (int x = left; x <= right; x++, i += SAMPLES) {
                if ((e0 + o00 | e1 + o01 | e2 + o02) >= 0) {
                    float zs = z + zo0;
                    if (zs < depth[i]) {
                        depth[i] = zs;
                        ids[i] = id;
                    }
                }
                if ((e0 + o10 | e1 + o11 | e2 + o12) >= 0) {
                    float zs = z + zo1;
                    if (zs < depth[i + 1]) {
                        depth[i + 1] = zs;
                        ids[i + 1] = id;
                    }
                }
                if ((e0 + o20 | e1 + o21 | e2 + o22) >= 0) {
                    float zs = z + zo2;
                    if (zs < depth[i + 2]) {
                        depth[i + 2] = zs;
                        ids[i + 2] = id;
                    }
                }
                if ((e0 + o30 | e1 + o31 | e2 + o32) >= 0) {
                    float zs = z + zo3;
                    if (zs < depth[i + 3]) {
                        depth[i + 3] = zs;
                        ids[i + 3] = id;
                    }
                }
                e0 += step0;
                e1 += step1;
                e2 += step2;
                z += zStep;
            }
        }
    }

    /**
     * Whether the edge from (x0, y0) to (x1, y1) is a top or a left edge of a triangle with positive area (clockwise
     * on the picture, y down): a left edge goes up, a top edge is horizontal and goes right. Samples exactly on such an
     * edge are inside.
     */
    private static boolean topLeft(long x0, long y0, long x1, long y1) {
        return y1 < y0 || y1 == y0 && x1 > x0;
    }

    /** Shades the band's pixels and writes them into {@code rgba}. */
    private void resolve(byte[] rgba, int y0, int y1, int background) {
        boolean transparent = (background >>> 24) == 0;
        float bgR = Srgb.TO_LINEAR[background >> 16 & 0xFF];
        float bgG = Srgb.TO_LINEAR[background >> 8 & 0xFF];
        float bgB = Srgb.TO_LINEAR[background & 0xFF];
        int w = width;
        for (int y = y0; y < y1; y++) {
            for (int x = 0; x < w; x++) {
                int i = SAMPLES * ((y - y0) * w + x);
                int o = 4 * (y * w + x);
                int s0 = ids[i], s1 = ids[i + 1], s2 = ids[i + 2], s3 = ids[i + 3];
                if ((s0 | s1 | s2 | s3) == 0) {
                    if (!transparent) {
                        rgba[o] = (byte) (background >> 16);
                        rgba[o + 1] = (byte) (background >> 8);
                        rgba[o + 2] = (byte) background;
                        rgba[o + 3] = (byte) 0xFF;
                    }
                    continue;
                }
                float r = 0, g = 0, b = 0;
                int covered = 0;
                for (int s = 0; s < SAMPLES; s++) {
                    int id = ids[i + s];
                    if (id == 0 || s > 0 && id == s0 || s > 1 && id == s1 || s > 2 && id == s2) {
                        continue; // empty, or shaded already with an earlier sample
                    }
                    int n = (id == s0 ? 1 : 0) + (id == s1 ? 1 : 0) + (id == s2 ? 1 : 0) + (id == s3 ? 1 : 0);
                    shade(id - 1, x + SAMPLE_X[s] / (float) SUB, y + SAMPLE_Y[s] / (float) SUB);
                    r += n * red;
                    g += n * green;
                    b += n * blue;
                    covered += n;
                }
                if (transparent) {
                    rgba[o] = (byte) Srgb.encode(r / covered);
                    rgba[o + 1] = (byte) Srgb.encode(g / covered);
                    rgba[o + 2] = (byte) Srgb.encode(b / covered);
                    rgba[o + 3] = (byte) ((covered * 255 + 2) / SAMPLES);
                } else {
                    int empty = SAMPLES - covered;
                    rgba[o] = (byte) Srgb.encode((r + empty * bgR) / SAMPLES);
                    rgba[o + 1] = (byte) Srgb.encode((g + empty * bgG) / SAMPLES);
                    rgba[o + 2] = (byte) Srgb.encode((b + empty * bgB) / SAMPLES);
                    rgba[o + 3] = (byte) 0xFF;
                }
            }
        }
    }

    /** Shades triangle {@code t} at picture point ({@code px}, {@code py}) into red, green, blue (linear). */
    private void shade(int t, float px, float py) {
        int a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
        int info = triangleInfo[2 * t];
        Prim p = prims[info >>> 1];
        float xa = screenX[a], ya = screenY[a];
        float xb = screenX[b] - xa, yb = screenY[b] - ya, xc = screenX[c] - xa, yc = screenY[c] - ya;
        float dx = px - xa, dy = py - ya;
        float det = xb * yc - yb * xc;
        float lb = (dx * yc - dy * xc) / det;
        float lc = (xb * dy - yb * dx) / det;
        float wa = (1 - lb - lc) * inverseW[a], wb = lb * inverseW[b], wc = lc * inverseW[c];
        float sum = wa + wb + wc;
        wa /= sum;
        wb /= sum;
        wc /= sum;
        int va = a - p.offset, vb = b - p.offset, vc = c - p.offset;
        float r = p.baseR, g = p.baseG, bl = p.baseB;
        if (p.colors != null) {
            float[] col = p.colors;
            r *= wa * col[4 * va] + wb * col[4 * vb] + wc * col[4 * vc];
            g *= wa * col[4 * va + 1] + wb * col[4 * vb + 1] + wc * col[4 * vc + 1];
            bl *= wa * col[4 * va + 2] + wb * col[4 * vb + 2] + wc * col[4 * vc + 2];
        }
        if (p.uvs != null) {
            float[] uv = p.uvs;
            sampleTexture(p.texture, wa * uv[2 * va] + wb * uv[2 * vb] + wc * uv[2 * vc],
                    wa * uv[2 * va + 1] + wb * uv[2 * vb + 1] + wc * uv[2 * vc + 1]);
            r *= red;
            g *= green;
            bl *= blue;
        }
        float nx, ny, nz;
        if (p.normals != null) {
            float[] n = p.normals;
            nx = wa * n[3 * va] + wb * n[3 * vb] + wc * n[3 * vc];
            ny = wa * n[3 * va + 1] + wb * n[3 * vb + 1] + wc * n[3 * vc + 1];
            nz = wa * n[3 * va + 2] + wb * n[3 * vb + 2] + wc * n[3 * vc + 2];
            if ((info & 1) != 0) { // the back of a double-sided surface
                nx = -nx;
                ny = -ny;
                nz = -nz;
            }
        } else {
            float[] q = p.positions;
            float ux = q[3 * vb] - q[3 * va], uy = q[3 * vb + 1] - q[3 * va + 1], uz = q[3 * vb + 2] - q[3 * va + 2];
            float vx = q[3 * vc] - q[3 * va], vy = q[3 * vc + 1] - q[3 * va + 1], vz = q[3 * vc + 2] - q[3 * va + 2];
            nx = uy * vz - uz * vy;
            ny = uz * vx - ux * vz;
            nz = ux * vy - uy * vx;
            double toEye = (eyeX - q[3 * va]) * nx + (eyeY - q[3 * va + 1]) * ny + (eyeZ - q[3 * va + 2]) * nz;
            if (toEye < 0) {
                nx = -nx;
                ny = -ny;
                nz = -nz;
            }
        }
        float light = 1;
        if (!p.unlit) {
            float len = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
            light = AMBIENT;
            if (len > 0) {
                light += KEY * Math.max(0, (nx * keyX + ny * keyY + nz * keyZ) / len)
                        + FILL * Math.max(0, (nx * fillX + ny * fillY + nz * fillZ) / len);
            }
        }
        red = r * light + p.emissiveR;
        green = g * light + p.emissiveG;
        blue = bl * light + p.emissiveB;
    }

    /** Bilinear sample of {@code t} at ({@code u}, {@code v}) (glTF convention, repeat) into red, green, blue (linear). */
    private void sampleTexture(TextureImage t, float u, float v) {
        if (!Float.isFinite(u) || !Float.isFinite(v)) {
            u = 0;
            v = 0;
        }
        float x = u * t.width - 0.5f, y = v * t.height - 0.5f;
        float fx = (float) Math.floor(x), fy = (float) Math.floor(y);
        float ax = x - fx, ay = y - fy;
        int x0 = Math.floorMod((long) fx, t.width), y0 = Math.floorMod((long) fy, t.height);
        int x1 = x0 + 1 == t.width ? 0 : x0 + 1, y1 = y0 + 1 == t.height ? 0 : y0 + 1;
        int[] px = t.argb;
        int p00 = px[y0 * t.width + x0], p10 = px[y0 * t.width + x1], p01 = px[y1 * t.width + x0],
                p11 = px[y1 * t.width + x1];
        float w00 = (1 - ax) * (1 - ay), w10 = ax * (1 - ay), w01 = (1 - ax) * ay, w11 = ax * ay;
        float[] lin = Srgb.TO_LINEAR;
        red = w00 * lin[p00 >> 16 & 0xFF] + w10 * lin[p10 >> 16 & 0xFF] + w01 * lin[p01 >> 16 & 0xFF]
                + w11 * lin[p11 >> 16 & 0xFF];
        green = w00 * lin[p00 >> 8 & 0xFF] + w10 * lin[p10 >> 8 & 0xFF] + w01 * lin[p01 >> 8 & 0xFF]
                + w11 * lin[p11 >> 8 & 0xFF];
        blue = w00 * lin[p00 & 0xFF] + w10 * lin[p10 & 0xFF] + w01 * lin[p01 & 0xFF] + w11 * lin[p11 & 0xFF];
    }

    private void ensurePrims(int n) {
        if (prims.length < n) {
            Prim[] more = Arrays.copyOf(prims, Math.max(n, 2 * prims.length));
            for (int i = prims.length; i < more.length; i++) {
                more[i] = new Prim();
            }
            prims = more;
        }
    }

    private void ensureVertices(int n) {
        if (fixedX.length < n) {
            int size = Math.max(n, 2 * fixedX.length);
            screenX = new float[size];
            screenY = new float[size];
            fixedX = new int[size];
            fixedY = new int[size];
            depthZ = new float[size];
            inverseW = new float[size];
        }
    }

    private void ensureTriangles(int n) {
        if (triangleInfo.length < 2L * n) {
            int size = Math.max(n, 2 * (triangleInfo.length / 2));
            triangles = Arrays.copyOf(triangles, 3 * size);
            triangleInfo = Arrays.copyOf(triangleInfo, 2 * size);
        }
    }

    private void ensureBand(int pixels) {
        if (ids.length < SAMPLES * pixels) {
            depth = new float[SAMPLES * pixels];
            ids = new int[SAMPLES * pixels];
        }
    }

    private static double[] unit(double x, double y, double z) {
        double l = Math.sqrt(x * x + y * y + z * z);
        return new double[] {x / l, y / l, z / l};
    }
}
