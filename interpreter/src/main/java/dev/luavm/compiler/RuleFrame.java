package dev.luavm.compiler;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * What the {@link Compiler} keeps of one active rule of the parse: the state PUC's recursive
 * descent would keep in the locals of the C function that parses it (an expression descriptor,
 * a saved register, a jump list), and the code generation that the rule's parts trigger as they
 * arrive. The events come in source order:
 * <ol>
 *   <li>{@link #enter}, when the rule starts, before any of its tokens is read;</li>
 *   <li>for each token of the rule itself, {@link #before} and then {@link #token} (between the
 *       two, {@link Compiler#lastLine} moves to the token's line);</li>
 *   <li>for each rule it invokes, {@link #child} (which makes that rule's frame) and, when that
 *       rule has ended, {@link #childDone};</li>
 *   <li>{@link #exit}, after its last token.</li>
 * </ol>
 * The parser's current token ({@link Compiler#current}) is at each event the token PUC would be
 * looking at, so a frame decides what PUC decides by peeking at it ({@code block_follow},
 * {@code testnext}) at the same moment.
 */
abstract class RuleFrame {
    final Compiler c;

    RuleFrame(Compiler c) {
        this.c = c;
    }

    /** A rule this one invokes starts: returns the frame that compiles it. */
    RuleFrame child(ParserRuleContext ctx) {
        throw new AssertionError(getClass().getSimpleName() + " has no child " + ctx.getClass().getSimpleName());
    }

    /** This rule starts. */
    void enter(ParserRuleContext ctx) {
    }

    /** Token {@code t} of this rule is about to be read. */
    void before(Token t) {
    }

    /** Token {@code t} of this rule has been read. */
    void token(Token t) {
    }

    /** The rule of {@code child} (made by {@link #child}) has ended. */
    void childDone(RuleFrame child) {
    }

    /** This rule ends. */
    void exit() {
    }

    /**
     * The frame of a rule that only groups tokens and rules of the rule around it
     * ({@code funcName}, {@code nameList}, {@code parList}, {@code fieldList},
     * {@code assignTail}, {@code elseIfPart}...): its events are the owner's, and its own end
     * is no event at all.
     */
    static final class Through extends RuleFrame {
        private final RuleFrame owner;

        Through(RuleFrame owner) {
            super(owner.c);
            this.owner = owner;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return owner.child(ctx);
        }

        @Override
        void before(Token t) {
            owner.before(t);
        }

        @Override
        void token(Token t) {
            owner.token(t);
        }

        @Override
        void childDone(RuleFrame child) {
            owner.childDone(child);
        }
    }
}
