package dev.luavm.cli;

import dev.luavm.LuaException;
import dev.luavm.LuaSyntaxException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The interactive loop, as {@code lua.c}'s: prompt {@code > }; a line that is an expression
 * list has its values printed (through the global {@code print}); a statement that is not yet
 * complete continues with {@code >> }; errors are printed without the program-name prefix and
 * the loop goes on. Each entry is one run, with fresh time and output budgets; gas is the
 * session's (once it is spent, every later entry reports the gas limit).
 */
final class Repl {
    private final LuaVM vm;
    private final Sandbox sandbox;
    private final Console console;

    Repl(LuaVM vm, Sandbox sandbox, Console console) {
        this.vm = vm;
        this.sandbox = sandbox;
        this.console = console;
    }

    void loop() {
        BufferedReader in = new BufferedReader(new InputStreamReader(console.in, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = prompt(in, "> ")) != null) {
                String chunk = readChunk(in, line);
                if (chunk == null) break;
                try {
                    sandbox.eval("=stdin", chunk);
                    console.out.flush();
                } catch (LuaException e) {
                    Runner.report(console, null, e);
                }
            }
            console.out.println();
            console.out.flush();
        } catch (IOException e) {
            console.error("luavm", "cannot read stdin", null);
        }
    }

    /**
     * The code to run for an entry: an expression list becomes a call printing its values;
     * otherwise lines are read until the statement is complete or has a real syntax error.
     */
    private String readChunk(BufferedReader in, String first) throws IOException {
        String line = first.startsWith("=") ? first.substring(1) : first;
        String expr = stripSemicolons(line);
        if (compiles("return " + expr + "\n")) {
            return "(function(...) if select('#', ...) > 0 then print(...) end end)(" + expr + "\n)";
        }
        StringBuilder buffer = new StringBuilder(first);
        while (true) {
            LuaSyntaxException error = syntaxError(buffer.toString());
            if (error == null || !error.isIncomplete()) return buffer.toString();
            String more = prompt(in, ">> ");
            if (more == null) return buffer.toString();
            buffer.append('\n').append(more);
        }
    }

    private static String stripSemicolons(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == ';' || Character.isWhitespace(s.charAt(end - 1)))) end--;
        return s.substring(0, end);
    }

    private boolean compiles(String code) {
        return !code.isBlank() && syntaxError(code) == null;
    }

    private LuaSyntaxException syntaxError(String code) {
        try {
            vm.compile("=stdin", code);
            return null;
        } catch (LuaSyntaxException e) {
            return e;
        } catch (LuaException e) {
            return null; // too big to compile: let the run report it
        }
    }

    private String prompt(BufferedReader in, String prompt) throws IOException {
        console.out.print(prompt);
        console.out.flush();
        return in.readLine();
    }
}
