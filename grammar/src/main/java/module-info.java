/**
 * The Lua 5.3 grammar's generated parser: internal to luavm, read only by the interpreter.
 */
module dev.luavm.grammar {
    requires transitive org.antlr.antlr4.runtime;

    exports dev.luavm.grammar to dev.luavm;
}
