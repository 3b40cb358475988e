package io.posekit.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.util.unit.DataSize;

class PosekitPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(PosekitProperties.class)
    static class PropertiesOnly {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
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
    }
}
