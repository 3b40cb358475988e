package io.posekit.skinning;

/**
 * An axis-aligned box and a bounding sphere around a set of points, in the points' space (model space for posed
 * meshes, scene units).
 *
 * <p>The sphere is centred on the box ({@code center = (min + max) / 2}) with the radius of the point farthest from
 * that centre: deterministic, contains every point, and never larger than the box's half-diagonal (it is not the
 * minimal enclosing sphere, which can be up to ~13 % smaller).
 *
 * @param min smallest x, y, z of the points
 * @param max largest x, y, z of the points
 * @param center the sphere's centre (the box's centre)
 * @param radius the sphere's radius, ≥ 0
 */
public record Bounds(float[] min, float[] max, float[] center, float radius) {
}
