package dev.luavm.contract;

import dev.luavm.Capabilities;
import dev.luavm.host.Safety;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A contract as a short table for a business owner ({@code luavm contract show FILE}): each
 * field in a line, then plain sentences derived from it ("cannot call the network", "can call
 * only: ...", "stops after 500 ms"), each of which the runtime enforces.
 *
 * <p>"cannot" lines come from the effects of the runnable functions: an effect the contract
 * forbids cannot be held by any granted function (loading fails otherwise), and an effect no
 * granted function declares is out of reach, since the libraries have no I/O. With the host's
 * registry at hand the lines use its declarations; without it, only the forbidden list counts.
 */
public final class ContractSummary {
    private ContractSummary() {}

    /** The summary, from the contract alone (no registry: effects are known from {@code forbidden} only). */
    public static List<String> lines(Contract c) {
        return lines(c, null);
    }

    /** The summary, with the host's declarations when {@code registry} is not null. */
    public static List<String> lines(Contract c, Capabilities registry) {
        List<String> out = new ArrayList<>();
        row(out, "contract", c.file());
        row(out, "purpose", c.purpose());
        row(out, "input", fields(c.input()));
        row(out, "output", fields(c.output()));
        List<String> fns = new ArrayList<>();
        for (FunctionRule f : c.functions()) fns.add(f.name() + " (" + safety(f, registry) + ")");
        row(out, "functions", fns.isEmpty() ? "none" : String.join(", ", fns));
        for (ModuleRule m : c.modules()) {
            List<String> mf = new ArrayList<>();
            for (FunctionRule f : m.functions()) mf.add(f.name() + " (" + safety(f, registry) + ")");
            row(out, "module " + m.name(), m.source().lines().count() + " lines of Lua; may call "
                    + (mf.isEmpty() ? "no host function" : String.join(", ", mf)));
        }
        row(out, "libraries", c.libraries().isEmpty() ? "none" : String.join(", ", c.libraries()));
        if (c.filesystem() != null) row(out, "files", mounts(c.filesystem()));
        row(out, "forbidden", c.forbidden().isEmpty() ? "nothing" : String.join(", ", c.forbidden()));
        row(out, "data boundary", c.dataBoundary() == null ? "(not stated)" : c.dataBoundary());
        row(out, "error detail", c.errorDetail().label);
        ContractLimits l = c.limits();
        row(out, "limits", "gas " + String.format(java.util.Locale.ROOT, "%,d", l.gas()) + ", memory " + size(l.memoryBytes()) + ", time " + duration(l.time())
                + ", output " + size(l.outputBytes()) + ", depth " + l.depth()
                + (l.auditEvents() == dev.luavm.Limits.DEFAULT_AUDIT_EVENTS ? ""
                        : ", audit " + String.format(java.util.Locale.ROOT, "%,d", l.auditEvents()) + " events"));
        row(out, "audit keeps", auditKept(c.audit()));
        row(out, "approved by", c.approvalOwner());
        row(out, "on failure", c.rollback() == Rollback.MANUAL_REVIEW
                ? "the item is marked for manual review"
                : "the last approved version runs on the same input; if it fails too, manual review");
        out.add("");
        out.add("What this means:");
        for (String s : derived(c, registry)) out.add("  - " + s);
        return out;
    }

    /** The plain sentences alone. */
    public static List<String> derived(Contract c, Capabilities registry) {
        List<String> out = new ArrayList<>();
        Set<String> effects = new LinkedHashSet<>();
        boolean effectsKnown = registry != null;
        List<String> runnable = new ArrayList<>();
        List<String> never = new ArrayList<>();
        for (FunctionRule f : c.functions()) {
            Capabilities.Grant g = registry == null ? null : registry.hostFunctions().get(f.name());
            Safety s = f.safety() != null ? f.safety() : g != null ? g.safety() : null;
            if (s == Safety.FORBIDDEN) {
                never.add(f.name());
                continue;
            }
            runnable.add(f.name());
            if (g != null) effects.addAll(g.effects());
            else effectsKnown = false;
        }
        List<String> throughModules = new ArrayList<>();
        for (ModuleRule m : c.modules()) {
            for (FunctionRule f : m.functions()) {
                Capabilities.Grant g = registry == null ? null : registry.hostFunctions().get(f.name());
                Safety s = f.safety() != null ? f.safety() : g != null ? g.safety() : null;
                if (s == Safety.FORBIDDEN) continue;
                throughModules.add(f.name() + " (module " + m.name() + ")");
                if (g != null) effects.addAll(g.effects()); // reachable through the module: its effects count
                else effectsKnown = false;
            }
        }
        if (c.filesystem() != null && !c.filesystem().mounts().isEmpty()) {
            effects.add("filesystem"); // its own files: the mounts
            if (c.filesystem().mounts().stream().anyMatch(FilesystemRule.MountRule::writable)) effects.add("writes:fs");
        }
        boolean net = cannot(c, effects, effectsKnown, "network");
        boolean files = cannot(c, effects, effectsKnown, "filesystem");
        boolean env = cannot(c, effects, effectsKnown, "environment");
        if (net) out.add("cannot call the network");
        if (files && env) out.add("cannot read files or environment variables");
        else if (files) out.add("cannot read or write files");
        else if (env) out.add("cannot read environment variables");
        if (cannot(c, effects, effectsKnown, "process")) out.add("cannot start programs");
        if (cannot(c, effects, effectsKnown, "cross-tenant")) out.add("cannot reach another tenant's data");
        for (String f : c.forbidden()) {
            if (ContractReader.KNOWN_EFFECTS.contains(f)) continue;
            if (f.startsWith("writes:")) out.add("cannot write to " + f.substring(7) + " (effect '" + f + "')");
            else if (f.startsWith("reads:")) out.add("cannot read " + f.substring(6) + " (effect '" + f + "')");
            else out.add("cannot use any function with the effect '" + f + "'");
        }
        if (c.filesystem() != null) {
            List<String> ro = new ArrayList<>();
            List<String> rw = new ArrayList<>();
            for (FilesystemRule.MountRule m : c.filesystem().mounts()) (m.writable() ? rw : ro).add(m.path());
            if (!ro.isEmpty()) out.add("reads files only under: " + String.join(", ", ro) + ", never writes there");
            if (!rw.isEmpty()) out.add("reads and writes files only under: " + String.join(", ", rw)
                    + " (each write, remove and rename logged; the quotas hold)");
        }
        out.add(runnable.isEmpty() ? "can call no host function" : "can call only: " + String.join(", ", runnable));
        if (!never.isEmpty()) out.add("is refused (and logged) if it calls: " + String.join(", ", never));
        if (!throughModules.isEmpty()) {
            out.add("reaches only through the reviewed modules, never by calling them itself: " + String.join(", ", throughModules));
        }
        out.add("uses only the libraries: " + (c.libraries().isEmpty() ? "none" : String.join(", ", c.libraries())));
        ContractLimits l = c.limits();
        out.add("stops after " + duration(l.time()));
        out.add("stops after " + String.format(java.util.Locale.ROOT, "%,d", l.gas()) + " units of work (gas)");
        out.add("holds at most " + size(l.memoryBytes()) + " of memory and prints at most " + size(l.outputBytes()));
        out.add("rejects any input that does not match the input schema, before it runs");
        out.add("never releases a result that does not match the output schema");
        out.add(switch (c.errorDetail()) {
            case NONE -> "a failed run says only its category; no outcome shows usage figures";
            case LOCATION -> "a failed run says where and what kind of failure, never the script's own text; no outcome shows usage figures";
            case FULL -> "a failed run says everything the runtime says, and outcomes show usage figures";
        });
        if (!c.audit().results()) out.add("runs cannot be replayed from the log (host-call results are not kept)");
        out.add(c.rollback() == Rollback.MANUAL_REVIEW
                ? "a failed run is marked for manual review, never silently changed"
                : "a failed run falls back to the last approved version, else manual review");
        out.add("new capabilities and versions are approved by " + c.approvalOwner());
        return out;
    }

    /** {@code /data read-only; /tmp memory (quota 8.0 MiB)} */
    private static String mounts(FilesystemRule fs) {
        List<String> out = new ArrayList<>();
        for (FilesystemRule.MountRule m : fs.mounts()) {
            out.add(m.path() + " " + m.mode().word + (m.quota() != null ? " (quota " + size(m.quota()) + ")" : ""));
        }
        return out.isEmpty() ? "no mount" : String.join("; ", out);
    }

    private static boolean cannot(Contract c, Set<String> effects, boolean effectsKnown, String effect) {
        if (ContractRunner.forbids(c.forbidden(), effect) != null) return true;
        if (!effectsKnown) return false;
        for (String e : effects) if (e.equals(effect) || e.startsWith(effect + ":")) return false;
        return true;
    }

    private static String safety(FunctionRule f, Capabilities registry) {
        if (f.safety() != null) return f.safety().name().toLowerCase() + limitNote(f);
        Capabilities.Grant g = registry == null ? null : registry.hostFunctions().get(f.name());
        return (g == null ? "as declared by the host" : g.safety().name().toLowerCase()) + limitNote(f);
    }

    private static String limitNote(FunctionRule f) {
        return f.maxCallsPerRun() == Long.MAX_VALUE ? "" : ", at most " + f.maxCallsPerRun() + " calls per run";
    }

    private static String fields(JsonSchema s) {
        var props = s.node().path("properties");
        if (!props.isObject() || props.isEmpty()) return "as its schema says";
        List<String> names = new ArrayList<>();
        props.fieldNames().forEachRemaining(names::add);
        Set<String> required = new LinkedHashSet<>();
        s.node().path("required").forEach(n -> required.add(n.asText()));
        List<String> shown = new ArrayList<>();
        for (String n : names) shown.add(required.contains(n) ? n : n + "?");
        return String.join(", ", shown);
    }

    private static String auditKept(AuditRule a) {
        List<String> kept = new ArrayList<>(List.of("every host call"));
        if (a.arguments()) kept.add("its arguments");
        if (a.results()) kept.add("its results");
        if (a.output()) kept.add("the script's printed output");
        return String.join(", ", kept);
    }

    private static void row(List<String> out, String name, String value) {
        out.add(String.format("%-14s %s", name, value));
    }

    /** 500 ms, 2 s, 1 min 30 s. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000 || ms % 1000 != 0) return ms + " ms";
        long s = ms / 1000;
        if (s < 60 || s % 60 != 0) return s + " s";
        long m = s / 60;
        if (m < 60 || m % 60 != 0) return m + " min";
        return (m / 60) + " h";
    }

    /** 16 MiB, 64 KiB, 100 bytes. */
    static String size(long b) {
        if (b >= 1 << 30 && b % (1 << 30) == 0) return (b >> 30) + " GiB";
        if (b >= 1 << 20 && b % (1 << 20) == 0) return (b >> 20) + " MiB";
        if (b >= 1 << 10 && b % (1 << 10) == 0) return (b >> 10) + " KiB";
        return b + " bytes";
    }
}
