package io.posekit.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.unit.DataSize;

class PosekitPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(PosekitProperties.class)
    static class PropertiesOnly {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(PropertiesOnly.class);

    @Test
    void everyValueHasADefault() {
        runner.run(context -> {
            PosekitProperties p = context.getBean(PosekitProperties.class);
            assertThat(p.cache().maxBytes()).isEqualTo(DataSize.ofMegabytes(512));
            assertThat(p.upload().maxBytes()).isEqualTo(DataSize.ofMegabytes(256));
            assertThat(p.store().dir().toString()).isEqualTo("posekit-store");
        });
    }

    @Test
    void bindsSizesWithUnitsAndPlainBytes() {
        runner.withPropertyValues("posekit.cache.max-bytes=2GB", "posekit.upload.max-bytes=1048576",
                "posekit.store.dir=/var/lib/posekit").run(context -> {
                    PosekitProperties p = context.getBean(PosekitProperties.class);
                    assertThat(p.cache().maxBytes()).isEqualTo(DataSize.ofGigabytes(2));
                    assertThat(p.upload().maxBytes()).isEqualTo(DataSize.ofMegabytes(1));
                    assertThat(p.store().dir().toString()).isEqualTo("/var/lib/posekit");
                });
    }

    @Test
    void rejectsValuesOutOfRangeAtStartUp() {
        runner.withPropertyValues("posekit.cache.max-bytes=10KB").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("posekit.cache.max-bytes must be at least 1MB"));
        runner.withPropertyValues("posekit.upload.max-bytes=4GB").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("posekit.upload.max-bytes must be between 1KB and 2GB"));
        Map.of("posekit.limits.parse-time=0s", "posekit.limits.parse-time must be positive",
                "posekit.limits.nodes=0", "posekit.limits.nodes must be positive",
                "posekit.parsing.threads=-1", "posekit.parsing.threads must not be negative",
                "posekit.warm-up.quiet=0ms", "posekit.warm-up.quiet must be positive",
                "posekit.warm-up.duration=-1s", "posekit.warm-up.duration must not be negative",
                "posekit.security.token-cache-size=0", "posekit.security.token-cache-size must be positive",
                "posekit.quota.burst=-1", "posekit.quota.burst must not be negative",
                "posekit.http.header-timeout=0s", "posekit.http.header-timeout must be positive",
                "posekit.render.queue=-1", "posekit.render.queue must not be negative")
                .forEach((setting, message) -> runner.withPropertyValues(setting).run(context -> assertThat(context)
                        .hasFailed().getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
                        .hasMessage(message)));
    }

    @Test
    void theLimitsAtTheirBoundsAreAccepted() {
        runner.withPropertyValues("posekit.cache.max-bytes=1MB", "posekit.upload.max-bytes=1KB",
                "posekit.parsing.threads=0", "posekit.parsing.queue=0", "posekit.warm-up.duration=0s",
                "posekit.quota.max-assets=0").run(context -> {
                    PosekitProperties p = context.getBean(PosekitProperties.class);
                    assertThat(p.cache().maxBytes()).isEqualTo(DataSize.ofMegabytes(1));
                    assertThat(p.upload().maxBytes()).isEqualTo(DataSize.ofKilobytes(1));
                    assertThat(p.parsing().threads()).isZero();
                    assertThat(p.warmUp().duration()).isZero();
                    assertThat(p.quota().maxAssets()).isZero();
                });
    }

    @Test
    void theStoreDefaultsToALocalDirectory() {
        runner.run(context -> {
            PosekitProperties.Store store = context.getBean(PosekitProperties.class).store();
            assertThat(store.type()).isEqualTo(PosekitProperties.Store.Type.DIRECTORY);
            assertThat(store.shared()).isFalse();
            assertThat(store.revalidate()).isEqualTo(Duration.ofSeconds(10));
            assertThat(store.s3().bucket()).isNull();
            assertThat(store.s3().prefix()).isEmpty();
            assertThat(store.s3().endpoint()).isNull();
            assertThat(store.s3().region()).isEqualTo("us-east-1");
            assertThat(store.s3().pathStyle()).isFalse();
            assertThat(store.s3().createBucket()).isFalse();
            assertThat(store.s3().timeout()).isEqualTo(Duration.ofSeconds(10));
        });
    }

    /** The environment variables docs/configuration.md, docs/scale.md, docker-compose.scale.yml and deploy/k8s set bind as documented. */
    @Test
    void bindsTheS3StoreFromTheEnvironmentVariablesTheDeploymentsSet() {
        Map<String, Object> env = Map.of("POSEKIT_STORE_TYPE", "s3", "POSEKIT_STORE_S3_BUCKET", "posekit",
                "POSEKIT_STORE_S3_PREFIX", "assets/", "POSEKIT_STORE_S3_ENDPOINT", "http://minio:9000",
                "POSEKIT_STORE_S3_REGION", "eu-west-1", "POSEKIT_STORE_S3_PATH_STYLE", "true",
                "POSEKIT_STORE_S3_CREATE_BUCKET", "true", "POSEKIT_STORE_S3_TIMEOUT", "3s",
                "POSEKIT_STORE_REVALIDATE", "2s", "POSEKIT_STORE_S3_ACCESS_KEY_ID", "id");
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment", env))).run(context -> {
                    PosekitProperties.Store store = context.getBean(PosekitProperties.class).store();
                    assertThat(store.type()).isEqualTo(PosekitProperties.Store.Type.S3);
                    assertThat(store.revalidate()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(store.s3()).isEqualTo(new PosekitProperties.S3("posekit", "assets/",
                            URI.create("http://minio:9000"), "eu-west-1", true, "id", null, true, Duration.ofSeconds(3)));
                });
    }

    @Test
    void anS3StoreNeedsABucket() {
        runner.withPropertyValues("posekit.store.type=s3").run(context -> assertThat(context).hasFailed().getFailure()
                .rootCause().hasMessageContaining("posekit.store.s3.bucket is required when posekit.store.type is s3"));
        runner.withPropertyValues("posekit.store.revalidate=-1s").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("posekit.store.revalidate must not be negative"));
    }
}
