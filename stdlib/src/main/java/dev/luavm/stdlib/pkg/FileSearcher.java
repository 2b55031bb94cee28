package dev.luavm.stdlib.pkg;

import dev.luavm.host.ModuleFiles;
import dev.luavm.lib.CallContext;
import dev.luavm.lib.FileSystem;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaValues;

/**
 * {@code searcher_Lua} over the sandbox's file system (a candidate under one of its mount points
 * is a VFS name, {@link FileSystem}) and the host's module directories ({@link ModuleFiles}): the first of
 * {@code package.path}'s candidates that is a module file inside them is read (size charged to
 * the memory meter and the byte rule first), stripped as {@code luaL_loadfile} does
 * ({@link FileText}) and compiled by the VM's {@code load} in text mode, so binary chunks never
 * load and compiling pays gas as any {@code load} does. A candidate outside the directories
 * reads as absent. The chunk belongs to the module its file's place inside the directories names
 * ({@link ModuleFiles#moduleName}, {@code CallContext#asModule}), for host functions granted to
 * that module; a file read from the sandbox's file system belongs to no module.
 */
final class FileSearcher {
    private FileSearcher() {}

    private static final LuaString PATH = LuaString.of("path");

    static final Builtin SEARCHER = new Builtin("searcher_Lua") { @Override public int call(CallContext c) {
        LuaString name = c.checkString(1);
        Object path = c.index(c.registry().get(Registry.PACKAGE), PATH);
        if (!(path instanceof LuaString p)) throw c.error("'package.path' must be a string");
        Object found = SearchPath.search(c, SearchPath.cString(c, name), SearchPath.cString(c, p),
                new byte[] {'.'}, new byte[] {'/'});
        if (!(found instanceof String filename)) return c.ret(found); // the "no file" lines
        byte[] fileBytes = filename.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        FileSystem fs = c.host().fileSystem();
        boolean inVfs = fs != null && fs.covers(fileBytes);
        ModuleFiles files = c.host().moduleFiles();
        long size = inVfs ? fs.fileSize(c, fileBytes) : files == null ? -1 : files.size(filename);
        if (size < 0) throw loadError(c, name, filename, "cannot read " + filename);
        c.memory().charge(Sizes.string(size));
        c.chargeBytes(size); // read; compiling it is charged by load
        byte[] source = inVfs ? fs.readFile(c, fileBytes, size) : files.read(filename, size);
        if (source == null) throw loadError(c, name, filename, "cannot read " + filename);
        Object load = c.registry().get(Registry.LOAD);
        if (load == null) throw loadError(c, name, filename, "no compiler in this sandbox");
        LuaString text = LuaString.wrap(FileText.strip(source));
        Object[] r = c.call(load, text, LuaString.of("@" + filename), LuaString.of("t"));
        Object chunk = r.length > 0 ? r[0] : null;
        if (!(chunk instanceof LuaFunction)) {
            Object why = r.length > 1 ? r[1] : null;
            throw loadError(c, name, filename, why instanceof LuaString s ? s.toString() : LuaValues.typeName(why));
        }
        // the host vouches for its module directories: the code is the module its file's place names;
        // a file of the sandbox's own file system is no module of the host's (a script may have written it)
        String module = inVfs ? null : files.moduleName(filename);
        if (module != null) chunk = c.asModule((LuaFunction) chunk, module);
        return c.ret(chunk, c.newString(filename));
    }};

    /** {@code checkload}'s message. */
    private static RuntimeException loadError(CallContext c, LuaString name, String filename, String why) {
        return c.error("error loading module '" + name + "' from file '" + filename + "':\n\t" + why);
    }
}
