package dev.luavm.conformance;

import dev.luavm.LuaVM;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's sentence on the module path names exactly the packages the engine's module
 * descriptor exports to everyone (its qualified exports, the VM's innards, are not API).
 */
class ModuleExportsDocTest {
    @Test
    void theReadmeNamesEveryExportedPackageAndNoOther() throws IOException {
        ModuleDescriptor module;
        try (InputStream in = descriptorOf(LuaVM.class)) {
            assertNotNull(in, "the engine's module descriptor");
            module = ModuleDescriptor.read(in);
        }
        assertEquals("dev.luavm", module.name());
        Set<String> exported = module.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
        String readme = Files.readString(readme()).replaceAll("\\s+", " ");
        int at = readme.indexOf("`requires dev.luavm.all;`");
        assertTrue(at >= 0, "README: the module-path sentence");
        String sentence = readme.substring(at, readme.indexOf("innards", at));
        Set<String> named = new TreeSet<>();
        Matcher m = Pattern.compile("`(dev\\.luavm(?:\\.[a-z]+)*)`").matcher(sentence);
        while (m.find()) named.add(m.group(1));
        assertTrue(exported.size() >= 8, exported::toString);
        assertEquals(exported, named);
    }

    /** The module-info.class beside {@code c} (its jar or classes directory), not the class path's first. */
    private static InputStream descriptorOf(Class<?> c) throws IOException {
        Path where;
        try {
            where = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isDirectory(where)) return Files.newInputStream(where.resolve("module-info.class"));
        java.util.zip.ZipFile jar = new java.util.zip.ZipFile(where.toFile());
        java.util.zip.ZipEntry e = jar.getEntry("module-info.class");
        if (e == null) {
            jar.close();
            return null;
        }
        return new java.io.FilterInputStream(jar.getInputStream(e)) {
            @Override
            public void close() throws IOException {
                super.close();
                jar.close();
            }
        };
    }

    private static Path readme() {
        return StdlibDocsTest.findDoc().getParent().getParent().resolve("README.md");
    }
}
