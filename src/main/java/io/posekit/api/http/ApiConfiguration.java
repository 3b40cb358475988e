package io.posekit.api.http;

import io.posekit.api.json.FloatArrayJson;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.JacksonModule;

/**
 * The web layer's additions to Spring MVC and Jackson, both for the cost of the sampling endpoints: {@code float[]}
 * written by {@link FloatArrayJson} (Spring Boot adds every {@link JacksonModule} bean to its JSON mapper), and
 * {@link SamplingQuery} arguments made by {@link SamplingQueryResolver}.
 */
@Configuration(proxyBeanMethods = false)
class ApiConfiguration implements WebMvcConfigurer {

    @Bean
    JacksonModule floatArrays() {
        return FloatArrayJson.module();
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new SamplingQueryResolver());
    }
}
