package dev.luavm.stdlib.docs;

import dev.luavm.Capabilities;
import dev.luavm.Capabilities.Grant;
import dev.luavm.docs.HostDocs;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.Param;
import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code docs} bundle (opt-in, not in {@code standard}): the global {@code docs}, a table
 * with one entry per granted host function and per granted bundle, made from the sandbox's
 * {@link Capabilities} when it is created, so it lists exactly what was granted.
 *
 * <pre>
 * docs["invoice.lookup_vendor"] = {kind = "function", name = ..., description = ..., safety = "SAFE",
 *     params = {{name = "id", type = "string", description = ..., optional = false, constraints = {...}}, ...},
 *     returns = {{type = "table", description = ...}}, effects = {"network"}, example = "..." or nil}
 * docs["string"] = {kind = "library", name = "string", description = ..., functions = {"string.byte", ...}}
 * docs["filesystem"] = {kind = "filesystem", description = ..., mounts = {{path = "/tmp", mode = "memory",
 *     quota = 8388608}, ...}, max_open_files = 64, max_files = 10000}      (with a granted file system)
 * </pre>
 *
 * Calling it prints ({@link HostDocs}'s plain text): {@code docs()} an overview,
 * {@code docs("invoice")} a module, {@code docs("invoice.lookup_vendor")} a function,
 * {@code docs("string")} a library; an unknown name is an error. Every text is rendered when the
 * sandbox is made (held in its memory meter), so a call does no work it has not paid for: the
 * name's bytes are charged before it is looked up, and the text by the byte rule before each
 * 4 KiB piece is written to the sandbox's output (whose limit applies), as {@code print} is.
 */
public final class DocsLibrary implements Library {
    /** the largest piece written in one go (each charged before it is written) */
    static final int CHUNK = 1 << 12;
    /** an unknown name is quoted in the error up to this many characters (a script may pass megabytes) */
    static final int MAX_NAME_SHOWN = 80;

    private static final LuaString DOCS = LuaString.of("docs");
    private static final LuaString CALL = LuaString.of("__call");

    @Override
    public String name() {
        return "docs";
    }

    @Override
    public void install(InstallContext ctx) {
        HostDocs docs = HostDocs.of(ctx.capabilities());
        Tables t = new Tables(ctx);
        LuaTable table = ctx.newTable();
        for (Grant g : docs.capabilities().hostFunctions().values()) table.put(t.str(g.path()), t.function(g));
        for (String b : docs.capabilities().bundles()) table.put(t.str(b), t.library(b));
        if (docs.capabilities().filesystem() != null) {
            table.put(t.str(HostDocs.FILESYSTEM), t.filesystem(docs.capabilities().filesystem()));
        }
        Texts texts = new Texts(docs, ctx.memory());
        LuaTable meta = ctx.newTable();
        meta.put(CALL, new Builtin("docs") { @Override public int call(CallContext c) { return print(c, texts); } });
        table.setMetatable(meta);
        ctx.globals().put(DOCS, table);
    }

    /** The overview and the text of every name, rendered once per sandbox; their bytes are held in its memory meter. */
    private static final class Texts {
        final byte[] overview;
        final Map<String, byte[]> byName = new HashMap<>();

        Texts(HostDocs docs, MemoryMeter meter) {
            overview = bytes(docs.overview(), meter);
            for (String name : docs.names()) byName.put(name, bytes(docs.text(name).orElseThrow(), meter));
        }

        private static byte[] bytes(String text, MemoryMeter meter) {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            meter.hold(Sizes.string(b.length));
            return b;
        }
    }

    /** {@code docs(self [, name])} through {@code __call}: argument 1 is the table itself. */
    private static int print(CallContext c, Texts texts) {
        byte[] text;
        if (c.isNoneOrNil(2)) {
            text = texts.overview;
        } else {
            if (!(c.arg(2) instanceof LuaString s)) throw c.error("bad argument #1 to 'docs' (string expected, got "
                    + dev.luavm.value.LuaValues.typeName(c.arg(2)) + ")");
            c.chargeBytes(s.length()); // hashed and compared
            text = texts.byName.get(s.toString());
            if (text == null) {
                String name = s.length() <= MAX_NAME_SHOWN ? s.toString() : s.toString().substring(0, MAX_NAME_SHOWN) + "...";
                throw c.error("docs: no function, module or library named '" + name + "' (docs() lists them)");
            }
        }
        for (int off = 0; off < text.length; off += CHUNK) {
            int k = Math.min(CHUNK, text.length - off);
            c.chargeBytes(k);
            c.host().write(text, off, k);
        }
        return c.ret();
    }

    /** Builds the entries, each string and table charged to the sandbox's memory meter. */
    private static final class Tables {
        private final InstallContext ctx;
        private final MemoryMeter meter;

        Tables(InstallContext ctx) {
            this.ctx = ctx;
            this.meter = ctx.memory();
        }

        LuaString str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            meter.charge(Sizes.string(b.length));
            return LuaString.wrap(b);
        }

        void set(LuaTable t, String key, Object value) {
            if (value != null) t.put(str(key), value instanceof String s ? str(s) : value);
        }

        LuaTable list(List<String> items) {
            LuaTable t = ctx.newTable();
            for (int i = 0; i < items.size(); i++) t.putInt(i + 1, str(items.get(i)));
            return t;
        }

        LuaTable function(Grant g) {
            LuaTable e = ctx.newTable();
            set(e, "kind", "function");
            set(e, "name", g.path());
            set(e, "description", g.description());
            set(e, "safety", g.safety().name());
            set(e, "signature", HostDocs.signature(g));
            LuaTable params = ctx.newTable();
            for (int i = 0; i < g.params().size(); i++) {
                Param p = g.params().get(i);
                LuaTable pt = param(p);
                set(pt, "name", p.name());
                pt.put(str("optional"), p.optional());
                LuaTable cs = ctx.newTable();
                for (int k = 0; k < p.constraints().size(); k++) {
                    ArgConstraint ac = p.constraints().get(k);
                    cs.putInt(k + 1, str(ac.describe()));
                }
                pt.put(str("constraints"), cs);
                params.putInt(i + 1, pt);
            }
            set(e, "params", params);
            LuaTable returns = ctx.newTable();
            for (int i = 0; i < g.returns().size(); i++) returns.putInt(i + 1, param(g.returns().get(i)));
            set(e, "returns", returns);
            set(e, "effects", list(g.effects()));
            set(e, "example", g.example());
            return e;
        }

        private LuaTable param(Param p) {
            LuaTable t = ctx.newTable();
            set(t, "type", p.type());
            set(t, "description", p.description());
            return t;
        }

        LuaTable library(String bundle) {
            LuaTable e = ctx.newTable();
            set(e, "kind", "library");
            set(e, "name", bundle);
            set(e, "description", HostDocs.librarySummary(bundle));
            set(e, "functions", list(HostDocs.libraryFunctions(bundle)));
            return e;
        }

        /** {@code {kind = "filesystem", mounts = {{path, mode, quota}, ...}, max_open_files, max_files}}; quota nil when unbounded. */
        LuaTable filesystem(dev.luavm.vfs.Vfs vfs) {
            LuaTable e = ctx.newTable();
            set(e, "kind", "filesystem");
            set(e, "description", HostDocs.filesystemText(vfs));
            LuaTable mounts = ctx.newTable();
            int i = 0;
            for (dev.luavm.vfs.Vfs.Mount m : vfs.mounts()) {
                LuaTable mt = ctx.newTable();
                set(mt, "path", m.path());
                set(mt, "mode", m.mode().word);
                if (m.mode() != dev.luavm.vfs.Vfs.Mode.READ_ONLY && m.quota() != dev.luavm.vfs.Vfs.UNLIMITED) {
                    mt.put(str("quota"), m.quota());
                }
                mounts.putInt(++i, mt);
            }
            set(e, "mounts", mounts);
            e.put(str("max_open_files"), (long) vfs.maxOpenFiles());
            e.put(str("max_files"), vfs.maxFiles());
            return e;
        }
    }
}
