package dev.luavm.compiler;

import dev.luavm.grammar.LuaParser;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.atn.DecisionState;
import org.antlr.v4.runtime.atn.ParserATNSimulator;
import org.antlr.v4.runtime.atn.PredictionContextCache;
import org.antlr.v4.runtime.atn.StarLoopEntryState;
import org.antlr.v4.runtime.dfa.DFA;

/**
 * ANTLR's prediction for the parse that generates code, with the answers to the grammar's five
 * decisions that are not LL(1) given from one to three tokens of lookahead, as lparser.c decides
 * them: whether a suffixed expression goes on ({@code suffix*}: a {@code '('} after an
 * expression is always a call), which statement starts ({@code 'for' NAME '='},
 * {@code 'local' 'function'}), which kind of table field ({@code NAME '='}), whether a field
 * list or a parameter list goes on ({@code ',' '}'}, {@code ',' '...'}).
 *
 * <p>Why: {@code suffixedExp}'s loop is predicted at every operand that is a name, and
 * {@code adaptivePredict} (its token stream marks, its DFA walk, its lookahead past a
 * {@code '('} until the two readings part) was about a sixth of a compilation.
 *
 * <p>Only for the second pass: the {@link SyntaxChecker} has accepted the source, so the tokens
 * after each decision are known to continue one reading, and the answers here are the ones the
 * SLL prediction gives on it (an ambiguity goes to the lowest alternative, the call). Any token
 * not listed, and every other decision, is left to ANTLR. The decisions are found in the
 * grammar's ATN by rule, not by number; one the grammar no longer has is left to ANTLR too.
 */
final class KnownPredictions extends ParserATNSimulator {
    private static final ATN ATN_ = LuaParser._ATN;
    private static final int STAT = ruleChoice(LuaParser.RULE_stat);
    private static final int FIELD = ruleChoice(LuaParser.RULE_field);
    private static final int SUFFIX_LOOP = loop(LuaParser.RULE_suffixedExp);
    private static final int FIELD_LOOP = loop(LuaParser.RULE_fieldList);
    private static final int PARAM_LOOP = loop(LuaParser.RULE_parList);

    KnownPredictions(Parser parser, DFA[] decisionToDFA, PredictionContextCache cache) {
        super(parser, ATN_, decisionToDFA, cache);
    }

    /** Whether every decision this class answers was found in the grammar (for tests). */
    static boolean complete() {
        return STAT >= 0 && FIELD >= 0 && SUFFIX_LOOP >= 0 && FIELD_LOOP >= 0 && PARAM_LOOP >= 0;
    }

    /** The decision choosing among the alternatives of {@code rule}, or -1. */
    private static int ruleChoice(int rule) {
        ATNState s = ATN_.ruleToStartState[rule].transition(0).target;
        return s instanceof DecisionState d ? d.decision : -1;
    }

    /** The decision of the one {@code (...)*} loop of {@code rule}, or -1 if it has none or several. */
    private static int loop(int rule) {
        int found = -1;
        for (DecisionState s : ATN_.decisionToState) {
            if (s.ruleIndex == rule && s instanceof StarLoopEntryState) {
                if (found >= 0) return -1;
                found = s.decision;
            }
        }
        return found;
    }

    @Override
    public int adaptivePredict(TokenStream input, int decision, ParserRuleContext outerContext) {
        int alt;
        if (decision == SUFFIX_LOOP) alt = suffixLoop(input.LA(1));
        else if (decision == STAT) alt = stat(input);
        else if (decision == FIELD) alt = field(input);
        else if (decision == FIELD_LOOP) alt = fieldLoop(input);
        else if (decision == PARAM_LOOP) alt = paramLoop(input);
        else alt = 0;
        return alt != 0 ? alt : super.adaptivePredict(input, decision, outerContext);
    }

    /** suffixedExp : primaryExp suffix* -- 1: one more suffix, 2: the expression ends. */
    private static int suffixLoop(int t) {
        switch (t) {
            case LuaParser.DOT: case LuaParser.LBRACKET: case LuaParser.COLON:
            case LuaParser.LPAREN: case LuaParser.STRING: case LuaParser.LBRACE:
                return 1;
            default:
                return 2;
        }
    }

    /** stat: the number of the alternative, in the grammar's order; 0 if unknown. */
    private static int stat(TokenStream in) {
        switch (in.LA(1)) {
            case LuaParser.SEMI: return 1;
            case LuaParser.NAME: case LuaParser.LPAREN: return 2;
            case LuaParser.DCOLON: return 3;
            case LuaParser.BREAK: return 4;
            case LuaParser.GOTO: return 5;
            case LuaParser.DO: return 6;
            case LuaParser.WHILE: return 7;
            case LuaParser.REPEAT: return 8;
            case LuaParser.IF: return 9;
            case LuaParser.FOR:
                if (in.LA(2) != LuaParser.NAME) return 0;
                return in.LA(3) == LuaParser.ASSIGN ? 10 : 11;
            case LuaParser.FUNCTION: return 12;
            case LuaParser.LOCAL:
                if (in.LA(2) == LuaParser.FUNCTION) return 13;
                return in.LA(2) == LuaParser.NAME ? 14 : 0;
            default: return 0;
        }
    }

    /** field: 1 keyed ('[' exp ']' '=' exp), 2 named (NAME '=' exp), 3 positional (exp). */
    private static int field(TokenStream in) {
        switch (in.LA(1)) {
            case LuaParser.LBRACKET:
                return 1;
            case LuaParser.NAME:
                return in.LA(2) == LuaParser.ASSIGN ? 2 : 3;
            case LuaParser.NIL: case LuaParser.FALSE: case LuaParser.TRUE: case LuaParser.INT:
            case LuaParser.FLOAT: case LuaParser.STRING: case LuaParser.ELLIPSIS: case LuaParser.FUNCTION:
            case LuaParser.LBRACE: case LuaParser.LPAREN: case LuaParser.NOT: case LuaParser.HASH:
            case LuaParser.MINUS: case LuaParser.TILDE:
                return 3;
            default:
                return 0;
        }
    }

    /** fieldList : field ((',' | ';') field)* (',' | ';')? -- 1: another field, 2: the list ends. */
    private static int fieldLoop(TokenStream in) {
        int t = in.LA(1);
        if (t == LuaParser.RBRACE) return 2;
        if (t != LuaParser.COMMA && t != LuaParser.SEMI) return 0;
        return in.LA(2) == LuaParser.RBRACE ? 2 : 1;
    }

    /** parList : NAME (',' NAME)* (',' '...')? -- 1: another name, 2: the names end. */
    private static int paramLoop(TokenStream in) {
        int t = in.LA(1);
        if (t == LuaParser.RPAREN) return 2;
        if (t != LuaParser.COMMA) return 0;
        int next = in.LA(2);
        return next == LuaParser.NAME ? 1 : next == LuaParser.ELLIPSIS ? 2 : 0;
    }
}
