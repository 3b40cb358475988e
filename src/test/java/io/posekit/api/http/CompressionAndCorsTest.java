package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompressionAndCorsTest {

    @Test
    void gzipIsAcceptedWhenListedOrCoveredByAStarWithAQualityAboveZero() {
        assertThat(Compression.acceptsGzip("gzip")).isTrue();
        assertThat(Compression.acceptsGzip("deflate, gzip;q=0.1")).isTrue();
        assertThat(Compression.acceptsGzip("gzip;q=0")).isFalse();
        assertThat(Compression.acceptsGzip("*")).isTrue();
        assertThat(Compression.acceptsGzip("gzip;q=0, *")).isFalse();
        assertThat(Compression.acceptsGzip("br")).isFalse();
        assertThat(Compression.acceptsGzip(null)).isFalse();
        assertThat(Compression.acceptsGzip("identity")).isFalse();
    }

    @Test
    void onlyJsonIsCompressed() {
        assertThat(Compression.compressible("application/json")).isTrue();
        assertThat(Compression.compressible("application/problem+json")).isTrue();
        assertThat(Compression.compressible("application/x-ndjson; charset=utf-8")).isTrue();
        assertThat(Compression.compressible("application/octet-stream")).isFalse();
        assertThat(Compression.compressible("model/gltf-binary")).isFalse();
        assertThat(Compression.compressible("image/png")).isFalse();
    }

    @Test
    void aRequestFromTheServersOwnOriginIsNotCrossOrigin() {
        assertThat(CorsPolicy.crossOrigin(null, "localhost:8080")).isFalse();
        assertThat(CorsPolicy.crossOrigin("http://localhost:8080", "localhost:8080")).isFalse();
        assertThat(CorsPolicy.crossOrigin("https://api.example.com", "api.example.com:443")).isFalse();
        assertThat(CorsPolicy.crossOrigin("http://api.example.com:80", "api.example.com")).isFalse();
        assertThat(CorsPolicy.crossOrigin("http://localhost:3000", "localhost:8080")).isTrue();
        assertThat(CorsPolicy.crossOrigin("https://app.example.com", "api.example.com")).isTrue();
        assertThat(CorsPolicy.crossOrigin("null", "localhost:8080")).isTrue();
    }
}
