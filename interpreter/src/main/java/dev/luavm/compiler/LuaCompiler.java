package dev.luavm.compiler;

import dev.luavm.bytecode.Prototype;
import dev.luavm.vm.LuaError;
import java.util.function.LongConsumer;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonTokenFactory;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenFactory;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.UnbufferedTokenStream;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * The front end's entry point: Lua 5.3 source bytes in, a {@link Prototype} (PUC 5.3 register
 * bytecode) out, or a {@link LuaError} whose message reads as PUC's.
 *
 * <p>Two passes over the source, neither of which keeps a token list or a tree:
 * <ol>
 *   <li>{@link LuaLexer} (hand-written after llex.c) reads the bytes, seen as Latin-1, into
 *       tokens of the grammar {@code Lua.g4}, on demand, for {@link SyntaxChecker} (a recognizer
 *       that follows lparser.c), which reports syntax errors exactly as PUC, including its
 *       nesting limit of 200 "C levels", which bounds every recursion after it;</li>
 *   <li>a second lexer feeds the ANTLR parser generated from {@code Lua.g4} (the
 *       {@link EventParser}: SLL prediction first, full LL only if SLL fails) through an
 *       unbuffered token stream, and the parser's events drive the {@link Compiler}, which
 *       generates code through {@link FuncState} as PUC's one-pass parser does.</li>
 * </ol>
 * So what a compilation holds is its output, the interned names and strings, and a frame per
 * level of nesting, whatever the size of the source; every stage pays its work and its heap to
 * the caller's {@link CompileMeter} before doing it, through one {@link CompileAccount}. No pass is
 * superlinear in the source (constants, strings and names are interned in maps whose keys are
 * ordered, so colliding keys cost a tree bin's depth; labels and pending gotos are found by name
 * per block).
 * At the maximum nesting PUC allows, the ANTLR parser and the compiler's events need more than
 * 512 KB and less than 768 KB of Java stack; compile on a thread with the default 1 MB stack or
 * more (with less, such a chunk fails with {@code chunk nested too deeply for the host stack}).
 * Binary chunks (starting with ESC) are the caller's business; here they are a lexical error.
 */
public final class LuaCompiler {
    private LuaCompiler() {}

    /** Compiles {@code source}; {@code chunkName} as given to load ("@file", "=name" or the source). */
    public static Prototype compile(byte[] source, String chunkName) throws LuaError {
        return compile(source, chunkName, CompileMeter.NONE);
    }

    /**
     * As {@link #compile(byte[], String, CompileMeter)}, reporting work to {@code work} and
     * leaving memory unbounded.
     */
    public static Prototype compile(byte[] source, String chunkName, LongConsumer work) throws LuaError {
        return compile(source, chunkName, work == null ? CompileMeter.NONE : CompileMeter.of(work));
    }

    /**
     * As {@link #compile(byte[], String)}, charging its work and its heap to {@code meter}
     * (see {@link CompileAccount} for the prices); whatever the meter throws ends the
     * compilation, and everything held is released when it ends.
     */
    public static Prototype compile(byte[] source, String chunkName, CompileMeter meter) throws LuaError {
        CompileAccount account = new CompileAccount(meter);
        try {
            CompileErrors errors = new CompileErrors(chunkName);
            long start = account.mark();
            LuaLexer checked = new LuaLexer(source, errors, account, false);
            try {
                account.pass(source.length);
                new SyntaxChecker(checked, errors, account).check();
                account.releaseTo(start); // the check's buffer is garbage now
                try {
                    return generate(source, chunkName, errors, account, PredictionMode.SLL);
                } catch (ParseCancellationException e) {
                    account.releaseTo(start);
                    return generate(source, chunkName, errors, account, PredictionMode.LL);
                }
            } catch (StackOverflowError e) {
                // The checker bounds nesting at PUC's 200 levels, which needs under 768 KB of Java
                // stack (the default thread stack is 1 MB). On a thread with less stack left, fail
                // cleanly, in the check or in the parse, rather than let the overflow escape.
                throw errors.semantic(checked.line(), "chunk nested too deeply for the host stack");
            }
        } finally {
            account.close();
        }
    }

    /** The parse with code generation, in prediction mode {@code mode}. */
    private static Prototype generate(byte[] source, String chunkName, CompileErrors errors,
                                      CompileAccount account, PredictionMode mode) {
        account.pass(source.length);
        Compiler compiler = new Compiler(errors, chunkName, account);
        Tokens tokens = new Tokens(new LuaLexer(source, errors, account, true), account);
        EventParser parser = new EventParser(new UnbufferedTokenStream<>(tokens), compiler);
        tokens.parser = parser;
        compiler.attach(parser);
        parser.removeErrorListeners();
        parser.getInterpreter().setPredictionMode(mode);
        parser.setErrorHandler(new BailErrorStrategy());
        try {
            parser.chunk();
        } catch (ParseCancellationException e) {
            if (mode == PredictionMode.SLL) throw e;
            // The syntax checker has accepted the input, so this means the grammar and the
            // checker disagree: a bug, reported as PUC would report an unexpected token.
            Token t = parser.getCurrentToken();
            throw errors.syntax(t.getLine(), "unexpected symbol", LuaLexer.tokenText(t.getType(), t.getText()));
        }
        return compiler.result();
    }

    /**
     * The lexer as ANTLR's token source; each token pays its work before it is read. Whatever
     * that throws (the meter's termination or memory error) stops the parser's events first.
     */
    private static final class Tokens implements TokenSource {
        private final LuaLexer lexer;
        private final CompileAccount account;
        EventParser parser;

        Tokens(LuaLexer lexer, CompileAccount account) {
            this.lexer = lexer;
            this.account = account;
        }

        @Override
        public Token nextToken() {
            try {
                account.token();
                return lexer.nextToken();
            } catch (RuntimeException | Error e) {
                if (parser != null) parser.fail();
                throw e;
            }
        }

        @Override
        public int getLine() {
            return lexer.line();
        }

        @Override
        public int getCharPositionInLine() {
            return 0;
        }

        @Override
        public CharStream getInputStream() {
            return null;
        }

        @Override
        public String getSourceName() {
            return "lua";
        }

        @Override
        public void setTokenFactory(TokenFactory<?> factory) {
        }

        @Override
        public TokenFactory<?> getTokenFactory() {
            return CommonTokenFactory.DEFAULT;
        }
    }
}
