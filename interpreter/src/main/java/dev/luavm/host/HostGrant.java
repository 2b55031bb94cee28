package dev.luavm.host;

import java.util.List;

/**
 * What the host-call layer knows of one granted host function: its dotted name, description,
 * implementation, safety class, parameters, results, effects, the audit log's redactor, an
 * example, the module it is bound to and where it runs. {@code dev.luavm.Capabilities.Grant} is
 * the one the host builds (through {@code Capabilities.Builder}) and implements this; the gateway,
 * {@link HostCall} and {@link CallRequest} see grants only through it, so this package never
 * names the public API's classes above it ({@code Capabilities} depends on this package, never
 * the reverse). A policy reads it as before: {@code request.grant().effects()}.
 */
public interface HostGrant {
    /** The dotted name the function was granted under ({@code "payments.refund"}). */
    String path();

    /** One line for listings and docs. */
    String description();

    /** The implementation; null only for a {@link Safety#FORBIDDEN} grant declared without one. */
    HostFunction function();

    /** Whether calls run always, under the policy, or never. */
    Safety safety();

    /** The declared parameters, in call order (empty when none were declared). */
    List<Param> params();

    /** The declared results (for listings; not checked). */
    List<Param> returns();

    /** Effect tags: {@code network}, {@code filesystem}, {@code writes:<thing>}, or free-form. */
    List<String> effects();

    /** How arguments and results are rewritten before they reach the audit log. */
    Redactor redactor();

    /** An example of a call as Lua source, or null. */
    String example();

    /** The one module whose code may call it, or null for any code. */
    String module();

    /** True when it runs on the sandbox's own thread instead of a host-call thread. */
    boolean onSandboxThread();

    /**
     * One line for listings: {@code "payments.refund(invoice: string, amount: integer 1..1000)
     * -> string [UNSAFE; network, writes:payments] - Refund an invoice"}; a plain grant (unsafe,
     * nothing declared, any module) is {@code "path - description"}.
     */
    default String describe() {
        if (safety() == Safety.UNSAFE && params().isEmpty() && returns().isEmpty() && effects().isEmpty() && module() == null) {
            return path() + " - " + description();
        }
        StringBuilder sb = new StringBuilder(path()).append('(');
        List<Param> params = params();
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            if (i > 0) sb.append(", ");
            sb.append(p.name()).append(": ").append(p.type());
            for (ArgConstraint c : p.constraints()) sb.append(' ').append(c.describe());
        }
        sb.append(')');
        if (!returns().isEmpty()) {
            List<String> r = new java.util.ArrayList<>();
            for (Param p : returns()) r.add(p.type());
            sb.append(" -> ").append(String.join(", ", r));
        }
        sb.append(" [").append(safety());
        if (!effects().isEmpty()) sb.append("; ").append(String.join(", ", effects()));
        if (module() != null) sb.append("; module ").append(module());
        return sb.append("] - ").append(description()).toString();
    }

    /**
     * A declared function not yet granted, as {@code dev.luavm.binding.ModuleBinder} reads one from
     * an annotated class: the host grants it through {@code Capabilities.Builder}, which checks it.
     */
    static HostGrant declared(String path, String description, HostFunction function, Safety safety, List<Param> params,
                              List<Param> returns, List<String> effects, Redactor redactor, String example) {
        return new DeclaredGrant(path, description, function, safety, List.copyOf(params), List.copyOf(returns),
                List.copyOf(effects), redactor == null ? Redactor.none() : redactor, example, null, false);
    }
}
