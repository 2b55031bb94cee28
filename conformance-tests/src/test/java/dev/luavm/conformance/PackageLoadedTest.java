package dev.luavm.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

/**
 * {@code package.loaded} lists every granted bundle, as {@code luaL_openlibs} leaves it, whatever
 * order the host names the bundles in: the sandbox installs {@code package} after the others.
 */
class PackageLoadedTest {
    private static final LuaVM VM = LuaVM.create();

    private static final String LIST_LOADED = """
            local names = {}
            for k, v in pairs(package.loaded) do
              names[#names + 1] = k .. (v == _G[k] and "" or "(not the global)")
            end
            table.sort(names)
            return table.concat(names, " ")
            """;

    private static Object loadedWith(String... bundles) {
        try (Sandbox sb = VM.sandbox().capabilities(Capabilities.builder().bundle(bundles).build()).build()) {
            return sb.eval(LIST_LOADED);
        }
    }

    @Test
    void packageGrantedFirstStillListsTheBundlesGrantedAfterIt() {
        assertEquals("_G math package string table", loadedWith("package", "base", "string", "table", "math"));
    }

    @Test
    void packageGrantedLastListsTheSame() {
        assertEquals("_G math package string table", loadedWith("base", "string", "table", "math", "package"));
    }

    @Test
    void standardPlusPackageListsEveryStandardLibrary() {
        assertEquals("_G coroutine math os package string table utf8",
                loadedWith("package", "standard"));
    }
}
