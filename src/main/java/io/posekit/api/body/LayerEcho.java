package io.posekit.api.body;


/**
 * What a response says of each blended layer.
 *
 * @param clip the clip's name
 * @param weight its weight
 * @param mode normal or additive
 * @param time its playback time, seconds
 * @param localTime its clip-local time, seconds
 */
public record LayerEcho(String clip, float weight, String mode, double time, double localTime) {
}
