package io.gpupipe.cdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.assertions.Template;

/** Small helpers to walk synthesized template JSON. */
final class TemplateJson {
    private TemplateJson() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o instanceof List<?> l ? (List<Object>) l : List.of(o);
    }

    static Map<String, Object> properties(Map<String, Object> resource) {
        return map(resource.get("Properties"));
    }

    /** Every IAM policy statement of the template: AWS::IAM::Policy documents and roles' inline policies. */
    static List<Map<String, Object>> policyStatements(Template template) {
        List<Map<String, Object>> statements = new ArrayList<>();
        template.findResources("AWS::IAM::Policy").values().forEach(p ->
                list(map(properties(p).get("PolicyDocument")).get("Statement")).forEach(s -> statements.add(map(s))));
        template.findResources("AWS::IAM::Role").values().forEach(r -> {
            Object inline = properties(r).get("Policies");
            if (inline != null) {
                list(inline).forEach(p -> list(map(map(p).get("PolicyDocument")).get("Statement"))
                        .forEach(s -> statements.add(map(s))));
            }
        });
        return statements;
    }

    /** The {@code Fn::ImportValue} names anywhere under {@code node}. */
    /** Container {@code name} of {@code tier}'s task definition in a synthesized GPU stack. */
    static Map<String, Object> container(Template gpu, String tier, String name) {
        String prefix = Character.toUpperCase(tier.charAt(0)) + tier.substring(1) + "Tier";
        return gpu.findResources("AWS::ECS::TaskDefinition").entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .flatMap(e -> list(properties(e.getValue()).get("ContainerDefinitions")).stream())
                .map(TemplateJson::map)
                .filter(c -> name.equals(c.get("Name")))
                .findFirst()
                .orElseThrow();
    }

    static List<String> importedNames(Object node) {
        List<String> names = new ArrayList<>();
        collectImports(node, names);
        return names;
    }

    private static void collectImports(Object node, List<String> names) {
        if (node instanceof Map<?, ?> m) {
            Object imported = m.get("Fn::ImportValue");
            if (imported instanceof String name) {
                names.add(name);
            }
            m.values().forEach(v -> collectImports(v, names));
        } else if (node instanceof List<?> l) {
            l.forEach(v -> collectImports(v, names));
        }
    }
}
