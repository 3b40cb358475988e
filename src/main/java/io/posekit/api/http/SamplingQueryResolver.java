package io.posekit.api.http;

import io.posekit.api.body.SamplingQuery;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ServletModelAttributeMethodProcessor;

/**
 * Makes the {@link SamplingQuery} argument of the sampling endpoints from the query string. Spring's constructor
 * binding of the record asks for its constructor's parameter annotations (the OpenAPI ones) several times per
 * request, and the JDK parses them from the class file every time: that was half the cost of a skinning-matrices
 * request. The common request — only single-valued {@code clip}, {@code time}, {@code frame}, {@code fps},
 * {@code normalized}, {@code speed}, {@code loop}, {@code threshold} and the endpoints' own parameters — is read here
 * directly; every other request ({@code layer}s, repeated or unknown parameters, the binder's {@code _name} and
 * {@code !name} markers, headers or path variables the binder would also bind) goes to Spring's binding, so the
 * argument is always what Spring's binding makes.
 */
public final class SamplingQueryResolver implements HandlerMethodArgumentResolver {

    /** The query fields read here; {@code layer} is left to Spring's list binding. */
    private static final String[] SCALARS = {"clip", "time", "frame", "fps", "normalized", "speed", "loop", "threshold"};
    /** Every record component: a header or path variable named like one of them would be bound by Spring. */
    private static final String[] COMPONENTS = {"clip", "time", "frame", "fps", "normalized", "speed", "loop", "layer",
        "threshold"};
    /** The other query parameters of the endpoints that take a SamplingQuery; Spring's binding ignores them. */
    private static final Set<String> OTHERS = Set.of("space", "form", "attributes", "skinning", "over", "nodes");
    private static final Set<String> SCALAR_SET = Set.of(SCALARS);
    /** The model attribute name Spring's binding gives the argument. */
    private static final String ATTRIBUTE = "samplingQuery";

    private final HandlerMethodArgumentResolver binding = new ServletModelAttributeMethodProcessor(true);

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == SamplingQuery.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest, WebDataBinderFactory binderFactory) throws Exception {
        HttpServletRequest request = webRequest.getNativeRequest(HttpServletRequest.class);
        if (request == null || !plain(request) || mavContainer != null && mavContainer.containsAttribute(ATTRIBUTE)) {
            return binding.resolveArgument(parameter, mavContainer, webRequest, binderFactory);
        }
        return new SamplingQuery(request.getParameter("clip"), request.getParameter("time"),
                request.getParameter("frame"), request.getParameter("fps"), request.getParameter("normalized"),
                request.getParameter("speed"), request.getParameter("loop"), null, request.getParameter("threshold"));
    }

    /** Whether Spring's binding would make exactly the record of the single-valued query fields (and no layers). */
    static boolean plain(HttpServletRequest request) {
        String contentType = request.getContentType();
        if (contentType != null && contentType.regionMatches(true, 0, "multipart/", 0, 10)) {
            return false;
        }
        for (Map.Entry<String, String[]> p : request.getParameterMap().entrySet()) {
            boolean scalar = SCALAR_SET.contains(p.getKey());
            if (!scalar && !OTHERS.contains(p.getKey()) || scalar && p.getValue().length != 1) {
                return false;
            }
        }
        Enumeration<String> headers = request.getHeaderNames();
        while (headers != null && headers.hasMoreElements()) {
            if (mentionsComponent(headers.nextElement())) {
                return false;
            }
        }
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables) {
            for (Object name : variables.keySet()) {
                if (mentionsComponent(String.valueOf(name))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a header or variable name contains a component's name (a superset of what the binder matches). */
    private static boolean mentionsComponent(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String component : COMPONENTS) {
            if (lower.contains(component)) {
                return true;
            }
        }
        return false;
    }
}
