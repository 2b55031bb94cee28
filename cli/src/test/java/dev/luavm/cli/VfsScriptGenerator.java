package dev.luavm.cli;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Random file scripts for the VFS's differential test: a seeded sequence of operations on three
 * handle slots and a small set of names (files, a directory, names through a file, a missing
 * directory, a lexical {@code ..}), each printing what it returned. Every operation lua5.3 offers
 * on files appears: {@code io.open} in every mode, {@code write} of strings and numbers,
 * {@code read} with one to three formats (numerals of every shape among the values written),
 * {@code seek} (with and without a whence), {@code setvbuf}, {@code flush}, {@code close},
 * {@code os.rename}, {@code os.remove}, {@code io.lines} with a format, {@code file:lines} with
 * formats, {@code io.write} and {@code io.read} through {@code io.output} and {@code io.input},
 * {@code io.type}, {@code os.tmpname}, and whole reads of a file by another handle. Handles stay reachable (the finalizers' timing is not
 * compared); nothing loops without end (no {@code lines} format that never reaches the end).
 */
final class VfsScriptGenerator {
    private VfsScriptGenerator() {}

    static final List<String> NAMES = List.of("\"a.txt\"", "\"b.txt\"", "\"c\"", "\"sub/d.txt\"", "\"sub/e\"", "\"sub\"",
            "\"nodir/x\"", "\"a.txt/x\"", "\"sub/../a.txt\"", "\"empty\"");
    static final List<String> MODES = List.of("\"r\"", "\"w\"", "\"a\"", "\"r+\"", "\"w+\"", "\"a+\"", "\"rb\"", "\"wb\"");
    static final List<String> VALUES = List.of("\"hello\"", "\"line\\n\"", "\"12 34\\n\"", "\"0x1F \"", "\"\\n\"",
            "string.rep(\"z\", 5000)", "\"3.5e2\\n\"", "\"a\\0b\"", "\"x\"", "string.rep(\"yz\\n\", 700)",
            "42", "-7", "3.25", "1e15", "0.1", "\"  -0x10p1 \"", "\"1e\"", "\".5 \"", "\"0x\"", "\"nan \"",
            "\"9223372036854775808 \"", "\"- 1\"", "\"12345678901234567890123\"", "math.mininteger", "-0.0", "1/0");
    static final List<String> FORMATS = List.of("\"l\"", "\"L\"", "\"a\"", "\"n\"", "0", "1", "5", "4096", "100", "\"*l\"");
    /** formats that always reach the end of a file ("a" and 0 never do) */
    static final List<String> LINE_FORMATS = List.of("\"l\"", "\"L\"", "\"n\"", "1", "5", "4096", "100");
    static final List<String> WHENCE = List.of("\"set\"", "\"cur\"", "\"end\"", "nil");
    static final int[] OFFSETS = {0, 0, 1, 3, -2, -100, 50, 6000};
    static final List<String> VBUF = List.of("\"no\"", "\"full\"", "\"line\"");
    private static final String[] OPS = {"open", "write", "read", "seek", "setvbuf", "flush", "close", "rename", "remove", "lines", "cat",
            "output", "input", "flines", "type", "tmpname"};
    private static final int[] WEIGHTS = {12, 12, 12, 6, 3, 3, 5, 4, 3, 3, 4, 3, 3, 3, 1, 1};

    static String script(long seed, int ops) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder("""
                local H = {}
                local function show(...)
                  local t = table.pack(...)
                  for i = 1, t.n do
                    local v = t[i]
                    if type(v) == "string" and #v > 60 then v = #v .. ":" .. v:sub(1, 20) .. ".." .. v:sub(-20) end
                    t[i] = tostring(v)
                  end
                  print((table.concat(t, " | "):gsub("%z", "<0>")))
                end
                local function live(k) return H[k] and io.type(H[k]) == "file" end
                """);
        for (int i = 0; i < ops; i++) {
            int k = 1 + r.nextInt(3);
            String h = "H[" + k + "]";
            switch (op(r)) {
                case "open" -> sb.append("do if live(").append(k).append(") then ").append(h).append(":close() end local f, m, e = io.open(")
                        .append(pick(r, NAMES)).append(", ").append(pick(r, MODES)).append(") ").append(h)
                        .append(" = f show('open', ").append(k).append(", f and io.type(f) or m, e) end\n");
                case "write" -> sb.append(guard(k)).append("show('write', ").append(k).append(", ").append(h).append(":write(")
                        .append(some(r, VALUES)).append(")) end\n");
                case "read" -> sb.append(guard(k)).append("show('read', ").append(k).append(", ").append(h).append(":read(")
                        .append(some(r, FORMATS)).append(")) end\n");
                case "seek" -> sb.append(guard(k)).append("show('seek', ").append(k).append(", ").append(h).append(":seek(")
                        .append(pick(r, WHENCE)).append(", ").append(OFFSETS[r.nextInt(OFFSETS.length)]).append(")) end\n");
                case "setvbuf" -> sb.append(guard(k)).append("show('setvbuf', ").append(k).append(", ").append(h)
                        .append(":setvbuf(").append(pick(r, VBUF)).append(")) end\n");
                case "flush" -> sb.append(guard(k)).append("show('flush', ").append(k).append(", ").append(h).append(":flush()) end\n");
                case "close" -> sb.append(guard(k)).append("show('close', ").append(k).append(", ").append(h).append(":close()) end\n");
                case "rename" -> sb.append("show('rename', os.rename(").append(pick(r, NAMES)).append(", ").append(pick(r, NAMES)).append("))\n");
                case "remove" -> sb.append("show('remove', os.remove(").append(pick(r, NAMES)).append("))\n");
                case "lines" -> sb.append("show('lines', pcall(function() local n, s = 0, 0 for a in io.lines(").append(pick(r, NAMES))
                        .append(", ").append(pick(r, LINE_FORMATS)).append(") do n = n + 1 s = s + #tostring(a) end return n, s end))\n");
                case "output" -> sb.append(guard(k)).append("io.output(").append(h).append(") show('io.write', ").append(k)
                        .append(", pcall(io.write, ").append(some(r, VALUES)).append(")) io.output(io.stdout) end\n");
                case "input" -> sb.append(guard(k)).append("io.input(").append(h).append(") show('io.read', ").append(k)
                        .append(", pcall(io.read, ").append(some(r, FORMATS)).append(")) io.input(io.stdin) end\n");
                case "flines" -> sb.append(guard(k)).append("show('flines', ").append(k).append(", pcall(function() local n, s = 0, 0 for a in ")
                        .append(h).append(":lines(").append(some(r, FORMATS)).append(") do n = n + 1 s = s + #tostring(a) if n == 40 then break end end return n, s end)) end\n");
                case "type" -> sb.append("show('type', ").append(k).append(", ").append(h).append(" and io.type(").append(h).append("))\n");
                case "tmpname" -> sb.append("do local n = os.tmpname() local f = io.open(n) show('tmpname', type(n), f ~= nil, f and f:read('a'))"
                        + " if f then f:close() end show('tmpremove', os.remove(n)) end\n");
                default -> sb.append("do local f = io.open(").append(pick(r, NAMES))
                        .append(") if f then show('cat', f:read('a')) f:close() else show('cat', '-') end end\n");
            }
        }
        return sb.toString();
    }

    private static String guard(int k) {
        return "if live(" + k + ") then ";
    }

    private static String op(SplittableRandom r) {
        int total = 0;
        for (int w : WEIGHTS) total += w;
        int x = r.nextInt(total);
        for (int i = 0; i < OPS.length; i++) {
            x -= WEIGHTS[i];
            if (x < 0) return OPS[i];
        }
        throw new IllegalStateException();
    }

    private static String pick(SplittableRandom r, List<String> from) {
        return from.get(r.nextInt(from.size()));
    }

    private static String some(SplittableRandom r, List<String> from) {
        int n = 1 + r.nextInt(3);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(", ");
            sb.append(pick(r, from));
        }
        return sb.toString();
    }
}
