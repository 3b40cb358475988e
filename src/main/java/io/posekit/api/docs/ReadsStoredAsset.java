package io.posekit.api.docs;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an endpoint that reads a stored asset, so its documentation gets the problems every such endpoint can answer
 * (added by {@link OpenApiDocumentation#storedAssetProblems} where the endpoint declares none of that code): 404 unknown
 * asset, 410 corrupt in the store, 503 with {@code Retry-After} when a re-parse after cache eviction found no parsing
 * thread in time.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ReadsStoredAsset {
}
