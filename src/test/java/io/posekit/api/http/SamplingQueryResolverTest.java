package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.body.SamplingQuery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.MethodParameter;
import org.springframework.format.support.DefaultFormattingConversionService;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.bind.support.ConfigurableWebBindingInitializer;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ServletModelAttributeMethodProcessor;
import org.springframework.web.servlet.mvc.method.annotation.ServletRequestDataBinderFactory;

/**
 * {@link SamplingQueryResolver} makes the same {@link SamplingQuery} as Spring's constructor binding (which it
 * replaces on the common path) for requests on both of its paths.
 */
class SamplingQueryResolverTest {

    private static final MethodParameter PARAMETER;

    static {
        try {
            PARAMETER = new MethodParameter(SamplingQueryResolverTest.class.getDeclaredMethod("handler",
                    SamplingQuery.class), 0);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private static void handler(SamplingQuery query) {
    }

    private static MockHttpServletRequest request(String query, String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/assets/x/skins/0/matrices");
        request.setQueryString(query);
        for (String pair : query.split("&")) {
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                request.addParameter(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.addHeader(headers[i], headers[i + 1]);
        }
        request.setAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of("id", "x", "skin", "0"));
        return request;
    }

    private static Object resolve(HandlerMethodArgumentResolver resolver,
            MockHttpServletRequest request) throws Exception {
        ConfigurableWebBindingInitializer initializer = new ConfigurableWebBindingInitializer();
        initializer.setConversionService(new DefaultFormattingConversionService());
        return resolver.resolveArgument(PARAMETER, new ModelAndViewContainer(), new ServletWebRequest(request),
                new ServletRequestDataBinderFactory(null, initializer));
    }

    /** Resolves {@code request} both ways; returns the query after checking they agree and the path taken. */
    private static SamplingQuery assertSameAsSpring(boolean plain, String query, String... headers) throws Exception {
        assertThat(SamplingQueryResolver.plain(request(query, headers))).as("plain: %s", query).isEqualTo(plain);
        Object spring = resolve(new ServletModelAttributeMethodProcessor(true), request(query, headers));
        Object ours = resolve(new SamplingQueryResolver(), request(query, headers));
        assertThat(ours).as(query).isEqualTo(spring);
        return (SamplingQuery) ours;
    }

    @Test
    void commonRequestsAreReadDirectlyAsSpringWouldBindThem() throws Exception {
        assertThat(assertSameAsSpring(true, "")).isEqualTo(new SamplingQuery(null, null, null, null, null, null, null,
                null, null));
        assertThat(assertSameAsSpring(true, "clip=Walk&time=0.468&loop=repeat"))
                .isEqualTo(new SamplingQuery("Walk", "0.468", null, null, null, null, "repeat", null, null));
        assertThat(assertSameAsSpring(true, "clip=Run&frame=12&fps=30&speed=-1&loop=pingpong&time=&space=model"))
                .isEqualTo(new SamplingQuery("Run", "", "12", "30", null, "-1", "pingpong", null, null));
        assertThat(assertSameAsSpring(true, "clip=0&normalized=0.5&threshold=0.2&attributes=position&skinning=dq"))
                .isEqualTo(new SamplingQuery("0", null, null, null, "0.5", null, null, null, "0.2"));
        assertSameAsSpring(true, "clip=Walk&form=dualQuaternion&over=clip&nodes=all", "Accept", "application/json",
                "If-None-Match", "\"abc\"", "User-Agent", "wrk");
    }

    @Test
    void everyOtherRequestIsLeftToSpring() throws Exception {
        assertThat(assertSameAsSpring(false, "layer=clip:Walk;weight:0.7&layer=clip:Run").layer())
                .containsExactly("clip:Walk;weight:0.7", "clip:Run");
        assertThat(assertSameAsSpring(false, "layer=clip:Walk,clip:Run").layer()).containsExactly("clip:Walk", "clip:Run");
        assertThat(assertSameAsSpring(false, "layer[0]=clip:Walk&layer[1]=clip:Run").layer())
                .isEqualTo(List.of("clip:Walk", "clip:Run"));
        assertThat(assertSameAsSpring(false, "clip=Walk&time=1&time=2").time()).isEqualTo("1,2");
        assertThat(assertSameAsSpring(false, "!clip=Walk").clip()).isEqualTo("Walk");
        assertSameAsSpring(false, "_clip=&time=1");
        assertSameAsSpring(false, "clip=Walk&unknown=1");
        assertThat(assertSameAsSpring(false, "clip=Walk", "Time", "3").time()).isEqualTo("3");
        assertThat(assertSameAsSpring(false, "", "Clip", "Walk", "Loop", "repeat").clip()).isEqualTo("Walk");
    }
}
