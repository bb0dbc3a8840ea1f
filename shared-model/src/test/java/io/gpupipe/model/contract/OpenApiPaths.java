package io.gpupipe.model.contract;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How {@link GpupipeApiSpec} finds its way in an OpenAPI document: path templates as patterns, JSON Pointers into
 * the document, and request media types read as the router reads them.
 */
final class OpenApiPaths {
    static final String JSON_TYPE = "application/json";
    /** JSON Lines (jsonlines.org): one JSON document per line; a batch file's pages. */
    static final String JSON_LINES_TYPE = "application/jsonl";

    private OpenApiPaths() {
    }

    /** A path template ({@code /v1/jobs/{id}}) and its parameters, each matching one non-empty segment. */
    record Route(String template, Pattern pattern, List<String> parameters) {
    }

    static Route route(String template) {
        List<String> parameters = new ArrayList<>();
        StringBuilder regex = new StringBuilder("^");
        var matcher = Pattern.compile("\\{([^}]+)}").matcher(template);
        int last = 0;
        while (matcher.find()) {
            regex.append(Pattern.quote(template.substring(last, matcher.start()))).append("([^/]+)");
            parameters.add(matcher.group(1));
            last = matcher.end();
        }
        regex.append(Pattern.quote(template.substring(last))).append('$');
        return new Route(template, Pattern.compile(regex.toString()), parameters);
    }

    /** The media type without parameters, lower case; absent and {@code +json} types read as application/json. */
    static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return JSON_TYPE;
        }
        String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return type.startsWith("application/") && type.endsWith("+json") ? JSON_TYPE : type;
    }

    /**
     * The lines of a JSON Lines body (each ended by a newline, the last one optionally): every line, an empty one
     * too, so that it is judged as the JSON document it must be.
     */
    static List<byte[]> jsonLines(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        String[] lines = (text.endsWith("\n") ? text.substring(0, text.length() - 1) : text).split("\n", -1);
        return Arrays.stream(lines).map(line -> line.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** A JSON Pointer segment (RFC 6901). */
    static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }

    /** A JSON Pointer as a URI fragment: characters a fragment may not hold percent-encoded. */
    static String fragment(String pointer) {
        StringBuilder out = new StringBuilder();
        for (byte b : pointer.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || "-._~/!$&'()*+,;=:@".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
