/**
 * Software rendering of posed meshes on the CPU, with no GPU, native library or browser: camera framing
 * ({@link io.posekit.render.View}, {@link io.posekit.render.Camera}), the rasteriser
 * ({@link io.posekit.render.Rasteriser}: z-buffered, 4× multisampled, perspective-correct, key + fill + ambient
 * light), and the PNG and GIF encoders the render endpoints answer with. Core: no Spring; uses everything of the
 * core below it.
 */
package io.posekit.render;
