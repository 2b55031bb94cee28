package dev.luavm.compiler;

import dev.luavm.bytecode.Disassembler;
import dev.luavm.vm.LuaError;
import java.nio.file.Files;
import java.nio.file.Path;

/** Development helper: prints the listing of a file, like {@code luac -l -l -p}. */
public final class Luac {
    public static void main(String[] args) throws Exception {
        byte[] src = Files.readAllBytes(Path.of(args[0]));
        try {
            System.out.print(Disassembler.listing(LuaCompiler.compile(src, "@" + args[0]), true));
        } catch (LuaError e) {
            System.out.println("ERROR: " + e.getMessage());
        }
    }
}
