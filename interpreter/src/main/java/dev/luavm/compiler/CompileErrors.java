package dev.luavm.compiler;

import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

/**
 * The one factory for compile-time messages, worded as PUC's {@code luaX_syntaxerror}:
 * {@code chunkid:line: message near token}, or without {@code near} for semantic errors
 * (goto/label errors, as PUC's {@code semerror}). All strings here are byte strings seen as
 * Latin-1 (one char per byte), so source bytes quoted after {@code near} survive unchanged.
 */
final class CompileErrors {
    private final String chunkId;

    CompileErrors(String chunkName) {
        this.chunkId = ChunkId.of(chunkName);
    }

    /** {@code chunkid:line: message near <token>}; {@code near} is already quoted as PUC does. */
    LuaError syntax(int line, String message, String near) {
        String text = chunkId + ":" + line + ": " + message;
        if (near != null) text += " near " + near;
        return new LuaError(latin1(text));
    }

    /** {@code chunkid:line: message}, without a token (PUC's semerror). */
    LuaError semantic(int line, String message) {
        return syntax(line, message, null);
    }

    /** PUC's errorlimit text: {@code too many <what> (limit is N) in main function}. */
    static String limitMessage(int lineDefined, int limit, String what) {
        String where = lineDefined == 0 ? "main function" : "function at line " + lineDefined;
        return "too many " + what + " (limit is " + limit + ") in " + where;
    }

    static LuaString latin1(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) return LuaString.of(s);
        }
        return LuaString.ofLatin1(s);
    }
}
