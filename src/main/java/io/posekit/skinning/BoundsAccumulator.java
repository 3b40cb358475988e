package io.posekit.skinning;

/**
 * Builds a {@link Bounds} over points seen in two passes: {@link #addToBox} for every batch of points (the box),
 * then {@link #addToSphere} for the same batches (the radius around the finished box's centre). Two passes keep the
 * sphere exact for points that arrive in many batches, e.g. a mesh posed at every sampled time of a clip. Points
 * with a non-finite coordinate are skipped. Mutable, not thread-safe, allocation-free until {@link #bounds()}.
 */
public final class BoundsAccumulator {

    private double minX = Double.POSITIVE_INFINITY, minY = Double.POSITIVE_INFINITY, minZ = Double.POSITIVE_INFINITY;
    private double maxX = Double.NEGATIVE_INFINITY, maxY = Double.NEGATIVE_INFINITY, maxZ = Double.NEGATIVE_INFINITY;
    private double radius2;
    private long points;

    /** Grows the box by {@code count} points stored as xyz triples in {@code xyz} from {@code offset}. */
    public void addToBox(float[] xyz, int offset, int count) {
        for (int i = 0, o = offset; i < count; i++, o += 3) {
            double x = xyz[o], y = xyz[o + 1], z = xyz[o + 2];
            if (!Double.isFinite(x + y + z)) {
                continue;
            }
            minX = Math.min(minX, x);
            minY = Math.min(minY, y);
            minZ = Math.min(minZ, z);
            maxX = Math.max(maxX, x);
            maxY = Math.max(maxY, y);
            maxZ = Math.max(maxZ, z);
            points++;
        }
    }

    /** Grows the sphere around the box's centre by the same kind of batch; call after every {@link #addToBox}. */
    public void addToSphere(float[] xyz, int offset, int count) {
        if (points == 0) {
            return;
        }
        double cx = (minX + maxX) / 2, cy = (minY + maxY) / 2, cz = (minZ + maxZ) / 2;
        for (int i = 0, o = offset; i < count; i++, o += 3) {
            double dx = xyz[o] - cx, dy = xyz[o + 1] - cy, dz = xyz[o + 2] - cz;
            double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 > radius2) { // NaN never compares greater: skipped points stay skipped
                radius2 = d2;
            }
        }
    }

    /** Forgets every point, to start over with the same instance. */
    public void reset() {
        minX = minY = minZ = Double.POSITIVE_INFINITY;
        maxX = maxY = maxZ = Double.NEGATIVE_INFINITY;
        radius2 = 0;
        points = 0;
    }

    /** Points in the box so far. */
    public long points() {
        return points;
    }

    /** The bounds, or {@code null} when no finite point was added. */
    public Bounds bounds() {
        if (points == 0) {
            return null;
        }
        return new Bounds(new float[] {(float) minX, (float) minY, (float) minZ},
                new float[] {(float) maxX, (float) maxY, (float) maxZ},
                new float[] {(float) ((minX + maxX) / 2), (float) ((minY + maxY) / 2), (float) ((minZ + maxZ) / 2)},
                (float) Math.sqrt(radius2));
    }
}
