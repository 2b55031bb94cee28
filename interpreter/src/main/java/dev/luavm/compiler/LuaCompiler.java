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
 * 512 KB and less than 768 KB of Java stack, and a function in an argument list already more
 * than 100 KB: a compilation that runs out of stack on the caller's thread is done again on a
 * thread with room ({@link dev.luavm.vm.RoomyStack}), its gas paid once, so any host thread
 * compiles anything PUC accepts.
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
        CreditMeter first = new CreditMeter(meter, 0);
        try {
            return compileHere(source, chunkName, first, false);
        } catch (LuaError | dev.luavm.vm.LuaTermination e) {
            throw e; // the chunk's own error, or the meter's (gas, time, cancel, memory): final
        } catch (StackOverflowError | AssertionError | RuntimeException e) {
            if (first.meterThrew) throw e; // whatever the meter throws ends the compile as it is
            // A host thread with a small stack (128 KiB, say): compile again on a thread with room
            // for PUC's deepest nesting. The overflow may also surface as another exception: ANTLR
            // runs each rule's exitRule in a finally block, so the compiler's exit events run
            // while the overflow unwinds, on half-built state, and what they throw replaces it
            // (an assertion, under -ea). A real bug throws the same again on the roomy thread.
            // The work the first attempt paid for is credited, so the gas is what one
            // compilation costs, on any thread.
            CreditMeter again = new CreditMeter(meter, first.charged);
            return dev.luavm.vm.RoomyStack.call("compile", () -> compileHere(source, chunkName, again, true));
        }
    }

    /**
     * One compilation on this thread. A {@link StackOverflowError} propagates (the caller tries
     * again on a roomier thread), unless {@code roomy}: then this thread already has the room the
     * nesting bound needs, and running out means a bug, reported as a syntax error.
     */
    private static Prototype compileHere(byte[] source, String chunkName, CompileMeter meter, boolean roomy) {
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
                // stack; the roomy thread has several times that. Never let the overflow escape.
                if (!roomy) throw e;
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

    /**
     * Passes a compilation's charges on to the caller's meter, less a credit: the work an
     * earlier attempt at the same compilation already paid for (compiling is deterministic, so
     * the attempts do the same work in the same order, and the earlier one paid for a prefix of
     * it). Counts what it charged, for the next attempt's credit.
     */
    private static final class CreditMeter implements CompileMeter {
        private final CompileMeter meter;
        private long credit;
        long charged;
        /** set when the caller's meter threw (not for lack of stack): its exception ends the compilation, never retried */
        boolean meterThrew;

        CreditMeter(CompileMeter meter, long credit) {
            this.meter = meter;
            this.credit = credit;
        }

        @Override
        public void work(long units) {
            long due = units;
            if (credit > 0) {
                long used = Math.min(credit, due);
                credit -= used;
                due -= used;
            }
            charged += units;
            if (due > 0) {
                try {
                    meter.work(due);
                } catch (RuntimeException | Error e) {
                    meterThrew = !(e instanceof StackOverflowError);
                    throw e;
                }
            }
        }

        @Override
        public void hold(long bytes) {
            try {
                meter.hold(bytes);
            } catch (RuntimeException | Error e) {
                meterThrew = !(e instanceof StackOverflowError);
                throw e;
            }
        }

        @Override
        public void release(long bytes) {
            try {
                meter.release(bytes);
            } catch (RuntimeException | Error e) {
                meterThrew = !(e instanceof StackOverflowError);
                throw e;
            }
        }
    }
}
