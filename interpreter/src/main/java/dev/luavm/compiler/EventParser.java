package dev.luavm.compiler;

import dev.luavm.grammar.LuaParser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;

/**
 * The ANTLR parser of {@code Lua.g4}, building no tree: it reports what it recognizes to the
 * {@link Compiler} as it goes, in source order, and the compiler generates code from those
 * events as PUC's one-pass parser does. The events are
 * <ul>
 *   <li>a rule starts, its alternative chosen and nothing of it read yet ({@code enterOuterAlt},
 *       which ANTLR calls once per rule invocation, with the context of the chosen labelled
 *       alternative);</li>
 *   <li>a token is about to be read, and has been read ({@code consume});</li>
 *   <li>a rule ends ({@code exitRule}).</li>
 * </ul>
 * A rule's context is garbage once the rule ends, and tokens once the stream has moved past
 * them, so what the parse holds is bounded by the nesting depth, whatever the size of the source.
 *
 * <p>The grammar's few decisions that need more than one token of lookahead are answered by
 * {@link KnownPredictions} rather than by ANTLR's prediction (the checker has already accepted
 * the source).
 *
 * <p>ANTLR calls {@code exitRule} from a {@code finally} block, so also while an exception
 * unwinds the parse: once anything has failed (a syntax error seen by ANTLR, an error raised by
 * the compiler or by the token source, such as a termination polled while paying for a token,
 * the nesting bound below), no more events are delivered.
 */
final class EventParser extends LuaParser {
    /**
     * Rule invocations the parse may nest. Everything parsed here has passed the
     * {@link SyntaxChecker}, whose 200 C levels allow at most about 19 rule invocations each
     * (a parenthesized operand: exp, the twelve operator levels, simpleExp, suffixedExp,
     * primaryExp...); the bound stands in case a grammar change breaks that ratio.
     */
    static final int MAX_DEPTH = 6000;

    private final Compiler compiler;
    private int depth;
    private boolean failed;

    EventParser(TokenStream input, Compiler compiler) {
        super(input);
        this.compiler = compiler;
        setBuildParseTree(false);
        setInterpreter(new KnownPredictions(this, _decisionToDFA, _sharedContextCache));
    }

    /** Something has failed: deliver no more events (the parse is unwinding). */
    void fail() {
        failed = true;
    }

    @Override
    public void enterOuterAlt(ParserRuleContext localctx, int altNum) {
        super.enterOuterAlt(localctx, altNum);
        if (failed) return;
        try {
            if (++depth > MAX_DEPTH) throw compiler.semError("chunk nested too deeply for the host stack");
            compiler.enter(localctx);
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public Token consume() {
        Token t = getCurrentToken();
        if (!failed) {
            try {
                compiler.before(t);
            } catch (RuntimeException | Error e) {
                failed = true;
                throw e;
            }
        }
        super.consume();
        if (!failed) {
            try {
                compiler.token(t);
            } catch (RuntimeException | Error e) {
                failed = true;
                throw e;
            }
        }
        return t;
    }

    @Override
    public void exitRule() {
        ParserRuleContext ctx = getContext();
        if (!failed && ctx.exception == null) {
            try {
                depth--;
                compiler.exit(ctx);
            } catch (RuntimeException | Error e) {
                failed = true;
                throw e;
            }
        } else {
            failed = true;
        }
        super.exitRule();
    }
}
