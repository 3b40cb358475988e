package io.posekit.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * posekit's configuration ({@code posekit.*}); every value has an embedded default so the service runs with
 * no configuration at all.
 *
 * @param cache the parsed-asset cache
 * @param store where uploads are kept
 * @param upload upload limits
 */
@ConfigurationProperties("posekit")
@Validated
public record PosekitProperties(@Valid @DefaultValue Cache cache, @Valid @DefaultValue Store store,
        @Valid @DefaultValue Upload upload) {

    /**
     * @param maxBytes Memory budget of parsed assets, at least 1MB. Evicted assets are parsed again from the store.
     */
    public record Cache(@NotNull @DefaultValue("512MB") DataSize maxBytes) {

        @AssertTrue(message = "posekit.cache.max-bytes must be at least 1MB")
        boolean isAtLeastOneMegabyte() {
            return maxBytes == null || maxBytes.toBytes() >= DataSize.ofMegabytes(1).toBytes();
        }
    }

    /**
     * @param dir Directory where uploads are kept; relative paths are under the working directory.
     */
    public record Store(@NotNull @DefaultValue("posekit-store") Path dir) {
    }

    /**
     * @param maxBytes Largest upload, all files together (1KB to 2GB); a zip may expand to at most this much.
     */
    public record Upload(@NotNull @DefaultValue("256MB") DataSize maxBytes) {

        @AssertTrue(message = "posekit.upload.max-bytes must be between 1KB and 2GB")
        boolean isWithinRange() {
            return maxBytes == null || (maxBytes.toBytes() >= 1024 && maxBytes.toBytes() <= Integer.MAX_VALUE - 8);
        }
    }
}
