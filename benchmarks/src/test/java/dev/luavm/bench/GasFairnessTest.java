package dev.luavm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gas-fairness benchmark without measuring: its cases cover the library and run, its section is replaced in place. */
class GasFairnessTest {

    @Test
    void everyLibraryFunctionHasACase() {
        LuaVM vm = LuaVM.create();
        Capabilities all = Capabilities.standard().toBuilder().bundle("debug", "package").build();
        String names;
        try (Sandbox sb = vm.sandbox(all, Limits.defaults())) {
            names = (String) sb.eval("local out = {} "
                    + "for k, v in pairs(_G) do if type(v) == 'function' then out[#out + 1] = k end end "
                    + "for _, lib in ipairs({'string', 'table', 'math', 'utf8', 'os', 'coroutine', 'package', 'debug'}) do "
                    + "  for k, v in pairs(_G[lib]) do if type(v) == 'function' then out[#out + 1] = lib .. '.' .. k end end "
                    + "end return table.concat(out, ' ')");
        }
        StringBuilder text = new StringBuilder();
        for (GasFairnessCases.Case c : GasFairnessCases.all()) {
            text.append(c.name()).append('\n').append(c.setup()).append('\n').append(c.pre()).append('\n').append(c.stmt()).append('\n');
        }
        List<String> missing = new ArrayList<>();
        for (String name : names.split(" ")) {
            String method = name.contains(".") ? ":" + name.substring(name.indexOf('.') + 1) + "(" : null;
            if (!text.toString().contains(name) && (method == null || !text.toString().contains(method))) missing.add(name);
        }
        assertTrue(missing.isEmpty(), "no gas-fairness case uses " + missing);
    }

    @Test
    void everyCaseRunsAtOneX() {
        LuaVM vm = LuaVM.create();
        Capabilities all = Capabilities.standard().toBuilder().bundle("debug", "package").build();
        for (GasFairnessCases.Case c : GasFairnessCases.all()) {
            try (Sandbox sb = vm.sandbox().capabilities(all).limits(Limits.defaults())
                    .output(java.io.OutputStream.nullOutputStream()).modules(n -> "return {}").build()) {
                if (!c.setup().isEmpty()) sb.eval("setup", c.setupAt(c.n0()));
                sb.run(vm.compile(c.name(), c.chunkAt(c.n0(), 1)));
                assertTrue(sb.usage().gas() > 0, c.name());
            }
        }
    }

    @Test
    void theSectionIsReplacedAndTheRestKept(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("RESULTS.md");
        Files.writeString(f, "# Results\n\nother tables\n", StandardCharsets.UTF_8);
        GasFairness.writeSection(f, GasFairness.BEGIN + "\nfirst\n" + GasFairness.END + "\n");
        GasFairness.writeSection(f, GasFairness.BEGIN + "\nsecond\n" + GasFairness.END + "\n");
        String text = Files.readString(f, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("# Results\n\nother tables\n"), text);
        assertTrue(text.contains("second") && !text.contains("first"), text);
        assertEquals(text.indexOf(GasFairness.BEGIN), text.lastIndexOf(GasFairness.BEGIN), "one section: " + text);
    }
}
