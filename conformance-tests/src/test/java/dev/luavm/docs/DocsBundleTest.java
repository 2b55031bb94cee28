package dev.luavm.docs;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.ArgConstraint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code docs} bundle and {@link HostDocs}: what a script and a model read about the grants. */
class DocsBundleTest {
    static Capabilities invoiceCaps() {
        return Capabilities.standard().toBuilder().bundle("docs")
                .declare("invoice.lookup_vendor", "Look up a vendor by id").safe()
                .param("id", "string", "vendor id", ArgConstraint.pattern("^V%-%d+$"))
                .returns("table", "the vendor: id, name")
                .example("local v = invoice.lookup_vendor('V-1')\nprint(v.name)")
                .grant(call -> Map.of("id", call.stringArg(0), "name", "ACME"))
                .declare("invoice.pay", "Pay an invoice").unsafe()
                .param("invoice", "string", "invoice id")
                .param("amount", "integer", "cents", ArgConstraint.range(1, 1000))
                .param("memo", "string?", "a note")
                .returns("string", "payment id")
                .effects("network", "writes:payments")
                .grant(call -> "pay-1")
                .declare("invoice.delete", "Delete an invoice").forbid()
                .grant("now", "The host's clock", call -> 12L)
                .build();
    }

    static String run(Capabilities caps, String script) {
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            sb.eval(script);
            return sb.output();
        }
    }

    @Test
    void theDocsTableMatchesTheGrantsExactly() {
        Capabilities caps = invoiceCaps();
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> docs = (Map<String, Map<String, Object>>) sb.getGlobal("docs");
            Set<String> functions = new TreeSet<>();
            Set<String> libraries = new TreeSet<>();
            docs.forEach((k, v) -> (v.get("kind").equals("function") ? functions : libraries).add(k));
            assertEquals(new TreeSet<>(caps.hostFunctions().keySet()), functions);
            assertEquals(new TreeSet<>(caps.bundles()), libraries);
            assertEquals(caps.hostFunctions().size() + caps.bundles().size(), docs.size());

            Map<String, Object> f = docs.get("invoice.pay");
            assertEquals("Pay an invoice", f.get("description"));
            assertEquals("UNSAFE", f.get("safety"));
            assertEquals(List.of("network", "writes:payments"), f.get("effects"));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> params = (List<Map<String, Object>>) f.get("params");
            assertEquals(List.of("invoice", "amount", "memo"), params.stream().map(p -> p.get("name")).toList());
            assertEquals("integer", params.get(1).get("type"));
            assertEquals(List.of("1..1000"), params.get(1).get("constraints"));
            assertEquals(true, params.get(2).get("optional"));
            assertEquals("local v = invoice.lookup_vendor('V-1')\nprint(v.name)", docs.get("invoice.lookup_vendor").get("example"));
            assertNull(f.get("example"));
            assertEquals("FORBIDDEN", docs.get("invoice.delete").get("safety"));
            assertTrue(((List<?>) docs.get("string").get("functions")).contains("string.format"));
        }
    }

    @Test
    void aScriptCanWalkTheTable() {
        String out = run(invoiceCaps(), """
                local names = {}
                for k, v in pairs(docs) do if v.kind == 'function' then names[#names + 1] = k end end
                table.sort(names)
                print(table.concat(names, ' '))
                print(docs['invoice.pay'].params[2].name, docs['invoice.pay'].returns[1].type)""");
        assertEquals("invoice.delete invoice.lookup_vendor invoice.pay now\namount\tstring\n", out);
    }

    @Test
    void docsPrintsAnOverview() {
        String out = run(invoiceCaps(), "docs()");
        assertEquals("""
                Libraries: base, coroutine, string, table, math, utf8, os, docs
                Host functions:
                  invoice.lookup_vendor(id: string) -> table  [SAFE] Look up a vendor by id
                  invoice.pay(invoice: string, amount: integer, memo: string?) -> string  [UNSAFE] Pay an invoice
                  invoice.delete()  [FORBIDDEN] Delete an invoice
                  now(...)  [UNSAFE] The host's clock
                docs("name") shows one function, module or library.
                """, out);
    }

    @Test
    void docsOfAFunction() {
        String out = run(invoiceCaps(), "docs('invoice.lookup_vendor') docs('invoice.pay')");
        assertEquals("""
                invoice.lookup_vendor(id: string) -> table
                  Look up a vendor by id
                  safety: SAFE (always runs)
                  parameters:
                    id: string matches '^V%-%d+$' - vendor id
                  returns:
                    table - the vendor: id, name
                  example:
                    local v = invoice.lookup_vendor('V-1')
                    print(v.name)
                invoice.pay(invoice: string, amount: integer, memo: string?) -> string
                  Pay an invoice
                  safety: UNSAFE (runs when the host's policy allows it)
                  effects: network, writes:payments
                  parameters:
                    invoice: string - invoice id
                    amount: integer 1..1000 - cents
                    memo: string? - a note
                  returns:
                    string - payment id
                """, out);
    }

    @Test
    void docsOfAModuleShowsEachFunction() {
        String out = run(invoiceCaps(), "docs('invoice')");
        assertTrue(out.startsWith("module invoice: 3 functions\n\ninvoice.lookup_vendor(id: string) -> table\n"), out);
        assertTrue(out.contains("\ninvoice.delete()\n  Delete an invoice\n  safety: FORBIDDEN (never runs: calls are refused)\n"), out);
        assertTrue(!out.contains("now("), out);
    }

    @Test
    void docsOfALibrary() {
        String out = run(invoiceCaps(), "docs('utf8') docs('string.format')");
        assertEquals("""
                library utf8: the Lua 5.3 utf8 library
                  utf8.char, utf8.charpattern, utf8.codepoint, utf8.codes, utf8.len, utf8.offset
                string.format: the standard Lua 5.3 function (library string; see the Lua 5.3 reference manual)
                """, out);
    }

    @Test
    void anUnknownNameIsAnError() {
        String out = run(invoiceCaps(), """
                print(pcall(docs, 'invoice.refund'))
                print(pcall(docs, 'io'))
                print(pcall(docs, 42))
                print(pcall(docs, {}))
                local ok, err = pcall(function() docs('nope') end)
                print(err)
                print(#select(2, pcall(docs, ('x'):rep(1000000))))""");
        assertEquals("""
                false\tdocs: no function, module or library named 'invoice.refund' (docs() lists them)
                false\tdocs: no function, module or library named 'io' (docs() lists them)
                false\tbad argument #1 to 'docs' (string expected, got number)
                false\tbad argument #1 to 'docs' (string expected, got table)
                input:5: docs: no function, module or library named 'nope' (docs() lists them)
                148
                """, out);
    }

    @Test
    void withoutTheBundleThereIsNoDocs() {
        assertEquals("nil\n", run(Capabilities.standard(), "print(docs)"));
    }

    @Test
    void docsOutputIsChargedByTheByteRuleAndBoundedByTheOutputLimit() {
        Capabilities.Builder b = Capabilities.builder().bundle("base", "docs");
        for (int i = 0; i < 2000; i++) {
            b.declare("m.f" + i, "function number " + i + " ".repeat(200)).safe().param("x", "string", "x".repeat(100))
                    .grant(call -> null);
        }
        Capabilities big = b.build();
        Capabilities small = Capabilities.builder().bundle("docs")
                .declare("m.f", "function number 1").safe().param("x", "string", "x".repeat(100)).grant(call -> null)
                .build();
        long[] gasBig = gasAndOutput(big, "docs('m')");
        long[] gasSmall = gasAndOutput(small, "docs('m')");
        System.out.println("docs('m') gas, bytes printed: 1 function " + gasSmall[0] + ", " + gasSmall[1]
                + "; 2000 functions " + gasBig[0] + ", " + gasBig[1]);
        // at least the byte rule on what was printed (1 per 8 bytes)
        assertTrue(gasBig[0] - gasSmall[0] >= (gasBig[1] - gasSmall[1]) / 8, gasBig[0] + " vs " + gasSmall[0]);

        try (Sandbox sb = LuaVM.newSandbox(big, Limits.defaults().withOutput(10_000))) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("pcall(docs, 'm')"));
            assertEquals(LuaLimitException.Limit.OUTPUT, e.limit());
        }
        try (Sandbox sb = LuaVM.newSandbox(big, Limits.defaults().withGas(20_000))) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("pcall(docs, 'm')"));
            assertEquals(LuaLimitException.Limit.GAS, e.limit());
            assertTrue(sb.output().length() < 20_000 * 8 + 8192, "printed " + sb.output().length());
        }
    }

    private static long[] gasAndOutput(Capabilities caps, String script) {
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            sb.eval(script);
            return new long[] {sb.usage().gas(), sb.usage().outputBytes()};
        }
    }

    @Test
    void markdownForASystemPrompt() {
        String md = HostDocs.markdown(invoiceCaps());
        assertTrue(md.startsWith("# Lua sandbox\n"), md);
        assertTrue(md.contains("\n## Libraries\n\n- `base`: "), md);
        assertTrue(md.contains("\n### `invoice`\n\n#### `invoice.lookup_vendor(id: string) -> table`\n\nLook up a vendor by id.\n\nSafety: `SAFE`.\n"), md);
        assertTrue(md.contains("| `amount` | `integer 1..1000` | cents |\n"), md);
        assertTrue(md.contains("Safety: `UNSAFE`. Effects: network, writes:payments.\n"), md);
        assertTrue(md.contains("Example:\n\n```lua\nlocal v = invoice.lookup_vendor('V-1')\nprint(v.name)\n```\n"), md);
        assertTrue(md.contains("\n### Globals\n\n#### `now(...)`\n"), md);
        for (String path : invoiceCaps().hostFunctions().keySet()) assertTrue(md.contains("#### `" + path + "("), path);
    }

    /** The catalog of standard bundles names exactly what each bundle installs. */
    @Test
    void theBundleCatalogMatchesWhatBundlesInstall() {
        Set<String> bare;
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.builder().bundle("base").build(), Limits.defaults())) {
            bare = globalNames(sb);
        }
        assertEquals(new TreeSet<>(HostDocs.libraryFunctions("base")), bare);
        for (String bundle : List.of("coroutine", "string", "table", "math", "utf8", "os", "package", "debug", "docs", "compat")) {
            try (Sandbox sb = LuaVM.newSandbox(Capabilities.builder().bundle("base", bundle).build(), Limits.defaults())) {
                Set<String> names = globalNames(sb);
                names.removeAll(bare);
                assertEquals(new TreeSet<>(HostDocs.libraryFunctions(bundle)), names, bundle);
            }
        }
    }

    /** Every global a script sees, with one level of library tables expanded ({@code "string.byte"}). */
    private static Set<String> globalNames(Sandbox sb) {
        sb.eval("""
                local out = ''
                for k, v in pairs(_G) do
                  if type(v) == 'table' and k ~= '_G' and k ~= 'docs' then
                    for k2 in pairs(v) do out = out .. ' ' .. k .. '.' .. k2 end
                  else out = out .. ' ' .. k end
                end
                names = out""");
        Set<String> names = new TreeSet<>(List.of(((String) sb.getGlobal("names")).split(" ")));
        names.remove("names");
        names.remove("");
        return names;
    }
}
