/**
 * The front end: Lua 5.3 source to PUC 5.3 register bytecode.
 *
 * <p>{@link dev.luavm.compiler.LuaCompiler} is the entry point. {@code LuaLexer}
 * (after llex.c) feeds {@code SyntaxChecker} (a recognizer following lparser.c,
 * giving PUC's exact syntax errors and bounding nesting at 200 "C levels"); then a second
 * lexer feeds the ANTLR parser generated from {@code grammar/src/main/antlr4/dev/luavm/grammar/Lua.g4}
 * ({@code EventParser}), which builds no tree: its events (a rule starts, a token is read, a
 * rule ends) drive {@code Compiler} (lparser.c's code-generating half), whose
 * {@code RuleFrame}s ({@code StatementRules}, {@code ExpressionRules}) generate code through
 * {@code FuncState} (lcode.c) with {@code ExpDesc} descriptors as the source streams past.
 * {@link dev.luavm.compiler.ChunkId} formats chunk names for messages, for the VM too.
 *
 * <p>A compilation is a resource of whoever asks for it: every pass pays its work (gas) and
 * its heap (held memory) to the caller's {@link dev.luavm.compiler.CompileMeter} before doing
 * it, through one {@code CompileAccount}; {@code ConstantKey}, the interned names and
 * {@code BlockJumps} keep every lookup at most logarithmic whatever the source.
 */
package dev.luavm.compiler;
