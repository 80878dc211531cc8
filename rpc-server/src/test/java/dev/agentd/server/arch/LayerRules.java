package dev.agentd.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The package rules of docs/ARCHITECTURE.md (§2 packages, §7 stdout) as ArchUnit rules. Each
 * package's {@code package-info.java} "May import" line says the same thing as its row in
 * {@link #MAY_IMPORT} ({@code PackageInfoTest} checks that): change both together.
 *
 * <p>The rules are built over a root package rather than {@code dev.agentd.server} itself, so
 * that {@code LayerRulesFixtureTest} can run the very same rules against deliberately broken
 * fixture classes and show that each kind of violation is reported.
 */
final class LayerRules {
    /** The protocol module: wire types and codec, importable by everyone. */
    static final String PROTOCOL = "protocol";
    private static final String PROTOCOL_PACKAGE = "dev.agentd.protocol";
    /** Any record (an immutable value) in a package other than {@code cli}. */
    static final String RECORDS = "records";

    /**
     * Package (relative to the root) → what it may import from agentd besides itself. An entry is a
     * package ({@code ai}), a package with its subpackages ({@code ai..}), a class and its nested
     * classes ({@code ai.ToolDefinition}), {@link #PROTOCOL}, or {@link #RECORDS}. Everything
     * outside agentd (the JDK, Jackson, slf4j, jsonrpc4j) is not governed here.
     */
    static final Map<String, List<String>> MAY_IMPORT = table();

    private static Map<String, List<String>> table() {
        Map<String, List<String>> t = new HashMap<>();
        t.put("cli", List.of(PROTOCOL, "rpc", "session", "agent", "ai..", "recovery", "compaction",
                "fallback", "fallback.control", "config", "auth", "tools", "sessionfile", "runtime", "commands", "export",
                "state",
                "state.redis", "acp", "wire", "mcp", "quota"));
        // rpc reads the values session's API returns (records such as RetryConfig) but calls no
        // service below session; faux_enqueue feeds the daemon-wide faux script, not session state.
        t.put("rpc", List.of(PROTOCOL, "wire", "session", RECORDS, "ai.faux.FauxScript", "commands", "export",
                "fallback.control.FallbackCommands"));
        t.put("session", List.of(PROTOCOL, "agent", "ai..", "recovery", "compaction", "fallback.control", "config",
                "auth", "tools", "sessionfile", "runtime", "quota"));
        // acp reports the recovery decision's classification; it never classifies on its own.
        t.put("acp", List.of(PROTOCOL, "wire", "session", "recovery.Classification", "recovery.ErrorClass",
                "recovery.TransientKind", "ai.ToolDefinition", "tools", "mcp", "commands", "runtime", RECORDS));
        // What both dialect families share: framing, the stdout writer, JSON-RPC 2.0's envelope records.
        t.put("wire", List.of(PROTOCOL));
        t.put("agent", List.of(PROTOCOL, "ai", "tools", "runtime"));
        t.put("ai", List.of(PROTOCOL, "ai.catalog", "runtime"));
        t.put("ai.sse", List.of());
        t.put("ai.catalog", List.of(PROTOCOL));
        t.put("ai.faux", List.of(PROTOCOL, "ai", "runtime"));
        t.put("ai.http", List.of(PROTOCOL, "ai", "ai.sse", "runtime"));
        t.put("ai.anthropic", List.of(PROTOCOL, "ai", "ai.http", "ai.sse", "ai.catalog", "runtime"));
        t.put("ai.openai", List.of(PROTOCOL, "ai", "ai.http", "ai.sse", "ai.catalog", "runtime"));
        t.put("ai.responses", List.of(PROTOCOL, "ai", "ai.http", "ai.sse", "ai.catalog", "runtime"));
        t.put("ai.gemini", List.of(PROTOCOL, "ai", "ai.http", "ai.sse", "ai.catalog", "runtime"));
        t.put("ai.bedrock", List.of(PROTOCOL, "ai", "ai.http", "ai.sse", "ai.catalog", "runtime"));
        t.put("ai.vertex", List.of(PROTOCOL, "ai", "ai.http", "ai.gemini", "ai.anthropic", "runtime"));
        t.put("ai.wiring", List.of("ai", "ai.http", "ai.anthropic", "ai.openai", "ai.responses", "ai.gemini",
                "ai.bedrock", "ai.vertex", "runtime"));
        t.put("recovery", List.of(PROTOCOL, "ai", "compaction", "config"));
        t.put("compaction", List.of(PROTOCOL, "config", "runtime"));
        t.put("quota", List.of(PROTOCOL, "ai", "runtime"));
        t.put("fallback", List.of(PROTOCOL, "ai", "recovery", "config", "runtime"));
        t.put("fallback.control", List.of(PROTOCOL, "ai", "recovery", "fallback", "config", "runtime", "state"));
        t.put("config", List.of(PROTOCOL, "runtime"));
        t.put("auth", List.of(PROTOCOL, "runtime", "state"));
        t.put("state", List.of("config", "runtime"));
        t.put("state.redis", List.of("state", "runtime"));
        t.put("tools", List.of(PROTOCOL, "ai.ToolDefinition", "runtime"));
        t.put("mcp", List.of(PROTOCOL, "ai.ToolDefinition", "tools", "runtime"));
        t.put("sessionfile", List.of(PROTOCOL, "runtime"));
        t.put("runtime", List.of(PROTOCOL));
        t.put("commands", List.of(PROTOCOL));
        t.put("export", List.of(PROTOCOL));
        return Map.copyOf(t);
    }

    /** The one class that takes the process's stdout (and stderr, before logging exists). */
    static final String ENTRY_POINT = "cli.Main";

    private final String root;

    /** @param root the package the table is relative to, e.g. {@code dev.agentd.server} */
    LayerRules(String root) {
        this.root = root;
    }

    /** One rule per row of {@link #MAY_IMPORT}, by package name. */
    List<ArchRule> layering() {
        return sortedPackages().stream().map(this::mayImport).toList();
    }

    /** The row of one package, e.g. {@code mayImport("tools")}. */
    ArchRule mayImport(String pkg) {
        List<String> allowed = MAY_IMPORT.get(pkg);
        if (allowed == null) {
            throw new IllegalArgumentException("no row for " + pkg);
        }
        return noClasses().that().resideInAPackage(absolute(pkg))
                .should().dependOnClassesThat(forbiddenFor(pkg, allowed))
                .as(pkg + " may import only " + (allowed.isEmpty() ? "nothing from agentd" : allowed))
                .allowEmptyShould(true);
    }

    /** A new package must get a row (and a package-info line) before it compiles into the build. */
    ArchRule everyPackageHasARule() {
        String[] known = sortedPackages().stream().map(this::absolute).toArray(String[]::new);
        return classes().that().resideInAPackage(root + "..")
                .should().resideInAnyPackage(known)
                .as("every package under " + root + " has a row in LayerRules.MAY_IMPORT");
    }

    /** No cycles between any two packages, subpackages counted on their own. */
    ArchRule noCycles() {
        return slices().matching(root + ".(**)").should().beFreeOfCycles()
                .as("packages under " + root + " are free of cycles");
    }

    /** Stdout is sacred: only protocol records reach it, through the writer cli.Main hands out. */
    List<ArchRule> stdout() {
        String entry = absolute(ENTRY_POINT);
        return List.of(
                noClasses().should().accessField(System.class, "out")
                        .as("no class uses System.out (stdout carries protocol records only)"),
                noClasses().that().doNotHaveFullyQualifiedName(entry)
                        .should().accessField(FileDescriptor.class, "out")
                        .orShould().callMethod(System.class, "setOut", PrintStream.class)
                        .as("only " + ENTRY_POINT + " takes the process's stdout"),
                noClasses().that().doNotHaveFullyQualifiedName(entry)
                        .should().accessField(System.class, "err")
                        .orShould().callMethod(Throwable.class, "printStackTrace")
                        .as("only " + ENTRY_POINT + " writes to stderr directly; everyone else logs via slf4j"));
    }

    /** Everything above, for one check of a whole code base. */
    List<ArchRule> all() {
        List<ArchRule> rules = new ArrayList<>(layering());
        rules.add(everyPackageHasARule());
        rules.add(noCycles());
        rules.addAll(stdout());
        return rules;
    }

    private List<String> sortedPackages() {
        return MAY_IMPORT.keySet().stream().sorted().toList();
    }

    private String absolute(String relative) {
        return root + "." + relative;
    }

    private DescribedPredicate<JavaClass> forbiddenFor(String pkg, List<String> allowed) {
        String own = absolute(pkg);
        return DescribedPredicate.describe("agentd classes outside " + allowed,
                dependency -> {
                    JavaClass target = dependency.getBaseComponentType(); // Foo[] counts as Foo
                    return isAgentd(target) && !target.getPackageName().equals(own) && !isAllowed(target, allowed);
                });
    }

    private boolean isAgentd(JavaClass target) {
        return isIn(target.getPackageName(), root) || isProtocol(target.getPackageName());
    }

    private static boolean isProtocol(String packageName) {
        return isIn(packageName, PROTOCOL_PACKAGE);
    }

    /** {@code packageName} is {@code base} or one of its subpackages. */
    private static boolean isIn(String packageName, String base) {
        return packageName.equals(base) || packageName.startsWith(base + ".");
    }

    private boolean isAllowed(JavaClass target, List<String> allowed) {
        String p = target.getPackageName();
        String name = target.getName();
        for (String entry : allowed) {
            if (entry.equals(PROTOCOL)) {
                if (isProtocol(p)) {
                    return true;
                }
            } else if (entry.equals(RECORDS)) {
                if (target.isRecord() && !isIn(p, absolute("cli"))) {
                    return true;
                }
            } else if (entry.endsWith("..")) {
                if (isIn(p, absolute(entry.substring(0, entry.length() - 2)))) {
                    return true;
                }
            } else if (isClassName(entry)) {
                String type = absolute(entry);
                if (name.equals(type) || name.startsWith(type + "$")) {
                    return true;
                }
            } else if (p.equals(absolute(entry))) {
                return true;
            }
        }
        return false;
    }

    /** Package segments are lower case; a class name starts with a capital. */
    private static boolean isClassName(String entry) {
        String last = entry.substring(entry.lastIndexOf('.') + 1);
        return !last.isEmpty() && Character.isUpperCase(last.charAt(0));
    }
}
