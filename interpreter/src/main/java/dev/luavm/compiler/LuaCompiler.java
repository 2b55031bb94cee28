package dev.luavm.compiler;

import dev.luavm.bytecode.Prototype;
import dev.luavm.grammar.LuaParser;
import dev.luavm.vm.LuaError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.ParseTreeListener;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The front end's entry point: Lua 5.3 source bytes in, a {@link Prototype} (PUC 5.3 register
 * bytecode) out, or a {@link LuaError} whose message reads as PUC's.
 *
 * <p>Pipeline:
 * <ol>
 *   <li>{@link LuaLexer} (hand-written after llex.c) turns the bytes, seen as Latin-1, into
 *       tokens of the grammar {@code Lua.g4}, on demand;</li>
 *   <li>{@link SyntaxChecker} (a recognizer that follows lparser.c) pulls the tokens and
 *       reports syntax errors exactly as PUC, including its nesting limit of 200 "C levels",
 *       which bounds every recursion after it;</li>
 *   <li>the ANTLR parser generated from {@code Lua.g4} builds the parse tree, with SLL prediction
 *       first and full LL only if SLL fails;</li>
 *   <li>{@link Compiler} walks the tree and generates code through {@link FuncState}.</li>
 * </ol>
 * Every stage pays its work and its heap to the caller's {@link CompileMeter} before doing it,
 * through one {@link CompileAccount}; no pass is superlinear in the source (constants, strings
 * and names are interned in maps whose keys are ordered, so colliding keys cost a tree bin's
 * depth; labels and pending gotos are found by name per block).
 * At the maximum nesting PUC allows, the ANTLR parser and the compiler need about 400 KB of
 * Java stack; compile on a thread with the default 1 MB stack or more.
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
            account.source(source.length);
            String text = new String(source, StandardCharsets.ISO_8859_1);
            CompileErrors errors = new CompileErrors(chunkName);
            List<LuaToken> tokens = new SyntaxChecker(new LuaLexer(text, errors, account), errors, account).check();
            try {
                LuaParser.ChunkContext tree = parse(tokens, errors, account);
                return new Compiler(errors, tokens, chunkName, account).mainFunc(tree);
            } catch (StackOverflowError e) {
                // The checker bounds nesting at PUC's 200 levels, which needs about 400 KB of Java
                // stack at most (the default thread stack is 1 MB). On a thread with less stack
                // left, fail cleanly rather than let the overflow escape.
                int line = tokens.get(tokens.size() - 1).getLine();
                throw errors.semantic(line, "chunk nested too deeply for the host stack");
            }
        } finally {
            account.close();
        }
    }

    /** Two-stage ANTLR parse: SLL with bail-out, then full LL with a throwing listener. */
    private static LuaParser.ChunkContext parse(List<LuaToken> tokens, CompileErrors errors, CompileAccount account) {
        CommonTokenStream stream = new CommonTokenStream(new ListTokenSource(tokens));
        LuaParser parser = new LuaParser(stream);
        parser.removeErrorListeners();
        parser.addParseListener(new NodeCounter(account));
        parser.setBuildParseTree(true);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.setErrorHandler(new BailErrorStrategy());
        try {
            return parser.chunk();
        } catch (ParseCancellationException e) {
            stream.seek(0);
            parser.reset();
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            parser.setErrorHandler(new DefaultErrorStrategy());
            parser.addErrorListener(new ThrowingErrorListener(errors));
            return parser.chunk();
        }
    }

    /** Pays for each parse-tree node as the parser makes it (both stages pay: both work). */
    private static final class NodeCounter implements ParseTreeListener {
        private final CompileAccount account;

        NodeCounter(CompileAccount account) {
            this.account = account;
        }

        @Override
        public void enterEveryRule(ParserRuleContext ctx) {
            account.node();
        }

        @Override
        public void exitEveryRule(ParserRuleContext ctx) {
            // most nodes have one child: ANTLR's default list of 10 slots is 3/4 of a node's heap
            if (ctx.children instanceof ArrayList<ParseTree> list) list.trimToSize();
        }

        @Override
        public void visitTerminal(TerminalNode node) {
        }

        @Override
        public void visitErrorNode(ErrorNode node) {
        }
    }

    /**
     * Turns an ANTLR syntax error into a Lua error. The syntax checker has already accepted the
     * input, so this means the grammar and the checker disagree: a bug, reported as PUC would
     * report an unexpected token.
     */
    private static final class ThrowingErrorListener extends BaseErrorListener {
        private final CompileErrors errors;

        ThrowingErrorListener(CompileErrors errors) {
            this.errors = errors;
        }

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line,
                                int charPositionInLine, String msg, RecognitionException e) {
            Token t = (Token) offendingSymbol;
            String near = t == null ? "<eof>" : LuaLexer.tokenText(t.getType(), t.getText());
            throw errors.syntax(line, "unexpected symbol", near);
        }
    }
}
