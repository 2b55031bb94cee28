package dev.luavm.compiler;

import static dev.luavm.grammar.LuaParser.*;


/**
 * A recognizer that follows PUC's {@code lparser.c} decision by decision, without generating
 * code. It runs before the ANTLR parser and gives luavm PUC's exact syntax errors (the same
 * token is current when the same check fails, so {@code near 'x'} and the line agree), and it
 * is the nesting guard: it counts "C levels" exactly as PUC's {@code enterlevel} does (in
 * {@code statement} and {@code subexpr}, plus the multiple-assignment check) and fails at
 * {@value #LUAI_MAXCCALLS} levels, so neither it (whose recursion is bounded by that limit) nor
 * the ANTLR parser and the compiler that run after it can exhaust the Java stack.
 *
 * <p>It pulls tokens from the {@link LuaLexer} one at a time, as PUC's parser does, so lexical
 * errors are reported only when reached, and keeps none of them: the parse that follows reads
 * the source again. It also checks the 200-locals limit, which PUC reports while parsing.
 */
final class SyntaxChecker {
    static final int LUAI_MAXCCALLS = 200;
    /**
     * C levels already in use when PUC parses a chunk given to {@code load} by a Lua script;
     * measured with lua5.3 (199 nested {@code do} blocks fail, 198 do not).
     */
    static final int C_LEVEL_BASE = 2;
    static final int MAXVARS = 200;

    private enum Kind { CALL, VAR, OTHER }

    /** What the checker knows of a function being parsed. */
    private static final class Func {
        final Func prev;
        final int lineDefined;
        boolean isVararg;
        int nvars;

        Func(Func prev, int lineDefined) {
            this.prev = prev;
            this.lineDefined = lineDefined;
        }
    }

    private final LuaLexer lexer;
    private final CompileErrors errors;
    private final CompileAccount account;
    private LuaToken t;
    private LuaToken ahead;
    private int nCcalls = C_LEVEL_BASE;
    private Func fs;

    SyntaxChecker(LuaLexer lexer, CompileErrors errors, CompileAccount account) {
        this.lexer = lexer;
        this.errors = errors;
        this.account = account;
    }

    /** Checks a whole chunk; returns the line of its end. */
    int check() {
        fs = new Func(null, 0);
        fs.isVararg = true;
        next();
        statList();
        check(EOF);
        return t.getLine();
    }

    // ------------------------------------------------------------------ tokens

    private LuaToken read() {
        account.token();
        return lexer.nextToken();
    }

    private void next() {
        if (ahead != null) {
            t = ahead;
            ahead = null;
        } else {
            t = read();
        }
    }

    private int lookahead() {
        if (ahead == null) ahead = read();
        return ahead.getType();
    }

    private RuntimeException error(String msg) {
        // PUC reports the line the lexer is on: the current token's, or the lookahead's
        int line = ahead != null ? ahead.getLine() : t.getLine();
        return errors.syntax(line, msg, LuaLexer.tokenText(t.getType(), t.getText()));
    }

    private static String name(int type) {
        if (type == EOF) return "<eof>";
        if (type == NAME) return "<name>";
        String s = VOCABULARY.getLiteralName(type);
        return s; // already quoted: 'end'
    }

    private RuntimeException errorExpected(int type) {
        return error(name(type) + " expected");
    }

    private boolean testNext(int type) {
        if (t.getType() == type) {
            next();
            return true;
        }
        return false;
    }

    private void check(int type) {
        if (t.getType() != type) throw errorExpected(type);
    }

    private void checkNext(int type) {
        check(type);
        next();
    }

    private void checkMatch(int what, int who, int where) {
        if (!testNext(what)) {
            if (where == t.getLine()) throw errorExpected(what);
            throw error(name(what) + " expected (to close " + name(who) + " at line " + where + ")");
        }
    }

    private void checkName() {
        check(NAME);
        next();
    }

    private void enterLevel() {
        ++nCcalls;
        checkLimit(nCcalls, LUAI_MAXCCALLS, "C levels");
    }

    private void leaveLevel() {
        nCcalls--;
    }

    private void checkLimit(int v, int limit, String what) {
        if (v > limit) throw error(CompileErrors.limitMessage(fs.lineDefined, limit, what));
    }

    private void newLocalVar() {
        fs.nvars++;
        checkLimit(fs.nvars, MAXVARS, "local variables");
    }

    private boolean blockFollow(boolean withUntil) {
        switch (t.getType()) {
            case ELSE: case ELSEIF: case END: case EOF:
                return true;
            case UNTIL:
                return withUntil;
            default:
                return false;
        }
    }

    // ------------------------------------------------------------------ statements

    private void statList() {
        while (!blockFollow(true)) {
            if (t.getType() == RETURN) {
                statement();
                return;
            }
            statement();
        }
    }

    private void block() {
        int saved = fs.nvars;
        statList();
        fs.nvars = saved;
    }

    private void statement() {
        int line = t.getLine();
        enterLevel();
        switch (t.getType()) {
            case SEMI:
                next();
                break;
            case IF:
                ifStat(line);
                break;
            case WHILE:
                next();
                expr();
                checkNext(DO);
                block();
                checkMatch(END, WHILE, line);
                break;
            case DO:
                next();
                block();
                checkMatch(END, DO, line);
                break;
            case FOR:
                forStat(line);
                break;
            case REPEAT: {
                next();
                int saved = fs.nvars;
                statList();
                checkMatch(UNTIL, REPEAT, line);
                expr(); // sees the body's locals
                fs.nvars = saved;
                break;
            }
            case FUNCTION: {
                next();
                checkName(); // funcname -> NAME {'.' NAME} [':' NAME]
                boolean isMethod = false;
                while (t.getType() == DOT) {
                    next();
                    checkName();
                }
                if (t.getType() == COLON) {
                    isMethod = true;
                    next();
                    checkName();
                }
                body(isMethod, line);
                break;
            }
            case LOCAL:
                next();
                if (testNext(FUNCTION)) {
                    checkName();
                    newLocalVar();
                    body(false, t.getLine());
                } else {
                    do {
                        checkName();
                        newLocalVar();
                    } while (testNext(COMMA));
                    if (testNext(ASSIGN)) exprList();
                }
                break;
            case DCOLON:
                next();
                checkName();
                checkNext(DCOLON);
                while (t.getType() == SEMI || t.getType() == DCOLON) statement(); // skipnoopstat
                break;
            case RETURN:
                next();
                if (!blockFollow(true) && t.getType() != SEMI) exprList();
                testNext(SEMI);
                break;
            case BREAK:
                next();
                break;
            case GOTO:
                next();
                checkName();
                break;
            default:
                exprStat();
        }
        leaveLevel();
    }

    private void ifStat(int line) {
        // ifstat -> IF cond THEN block {ELSEIF cond THEN block} [ELSE block] END
        do {
            next(); // skip IF or ELSEIF
            expr();
            checkNext(THEN);
            block();
        } while (t.getType() == ELSEIF);
        if (testNext(ELSE)) block();
        checkMatch(END, IF, line);
    }

    private void forStat(int line) {
        int saved = fs.nvars;
        next(); // skip 'for'
        checkName();
        switch (t.getType()) {
            case ASSIGN:
                for (int i = 0; i < 4; i++) newLocalVar();
                next();
                expr();
                checkNext(COMMA);
                expr();
                if (testNext(COMMA)) expr();
                break;
            case COMMA: case IN:
                for (int i = 0; i < 4; i++) newLocalVar();
                while (testNext(COMMA)) {
                    checkName();
                    newLocalVar();
                }
                checkNext(IN);
                exprList();
                break;
            default:
                throw error("'=' or 'in' expected");
        }
        checkNext(DO);
        block();
        checkMatch(END, FOR, line);
        fs.nvars = saved;
    }

    private void exprStat() {
        Kind k = suffixedExp();
        if (t.getType() == ASSIGN || t.getType() == COMMA) {
            int nvars = 1;
            for (;;) {
                if (k == Kind.CALL || k == Kind.OTHER) throw error("syntax error");
                if (!testNext(COMMA)) break;
                k = suffixedExp();
                checkLimit(nvars + nCcalls, LUAI_MAXCCALLS, "C levels");
                nvars++;
            }
            checkNext(ASSIGN);
            exprList();
        } else if (k != Kind.CALL) {
            throw error("syntax error");
        }
    }

    // ------------------------------------------------------------------ functions

    private void body(boolean isMethod, int line) {
        Func f = new Func(fs, line);
        fs = f;
        checkNext(LPAREN);
        if (isMethod) newLocalVar();
        if (t.getType() != RPAREN) {
            do {
                switch (t.getType()) {
                    case NAME:
                        next();
                        newLocalVar();
                        break;
                    case ELLIPSIS:
                        next();
                        f.isVararg = true;
                        break;
                    default:
                        throw error("<name> or '...' expected");
                }
            } while (!f.isVararg && testNext(COMMA));
        }
        checkNext(RPAREN);
        statList();
        checkMatch(END, FUNCTION, line);
        fs = f.prev;
    }

    // ------------------------------------------------------------------ expressions

    private void exprList() {
        expr();
        while (testNext(COMMA)) expr();
    }

    private void expr() {
        subExpr(0);
    }

    private Kind primaryExp() {
        switch (t.getType()) {
            case LPAREN: {
                int line = t.getLine();
                next();
                expr();
                checkMatch(RPAREN, LPAREN, line);
                return Kind.OTHER;
            }
            case NAME:
                next();
                return Kind.VAR;
            default:
                throw error("unexpected symbol");
        }
    }

    private Kind suffixedExp() {
        int line = t.getLine();
        Kind k = primaryExp();
        for (;;) {
            switch (t.getType()) {
                case DOT:
                    next();
                    checkName();
                    k = Kind.VAR;
                    break;
                case LBRACKET:
                    next();
                    expr();
                    checkNext(RBRACKET);
                    k = Kind.VAR;
                    break;
                case COLON:
                    next();
                    checkName();
                    funcArgs(line);
                    k = Kind.CALL;
                    break;
                case LPAREN: case STRING: case LBRACE:
                    funcArgs(line);
                    k = Kind.CALL;
                    break;
                default:
                    return k;
            }
        }
    }

    private void funcArgs(int line) {
        switch (t.getType()) {
            case LPAREN:
                next();
                if (t.getType() != RPAREN) exprList();
                checkMatch(RPAREN, LPAREN, line);
                break;
            case LBRACE:
                constructor();
                break;
            case STRING:
                next();
                break;
            default:
                throw error("function arguments expected");
        }
    }

    private void constructor() {
        int line = t.getLine();
        checkNext(LBRACE);
        do {
            if (t.getType() == RBRACE) break;
            // field -> listfield | recfield
            switch (t.getType()) {
                case NAME:
                    if (lookahead() != ASSIGN) {
                        expr();
                    } else {
                        next();
                        checkNext(ASSIGN);
                        expr();
                    }
                    break;
                case LBRACKET:
                    next();
                    expr();
                    checkNext(RBRACKET);
                    checkNext(ASSIGN);
                    expr();
                    break;
                default:
                    expr();
            }
        } while (testNext(COMMA) || testNext(SEMI));
        checkMatch(RBRACE, LBRACE, line);
    }

    private Kind simpleExp() {
        switch (t.getType()) {
            case FLOAT: case INT: case STRING: case NIL: case TRUE: case FALSE:
                next();
                return Kind.OTHER;
            case ELLIPSIS:
                if (!fs.isVararg) throw error("cannot use '...' outside a vararg function");
                next();
                return Kind.OTHER;
            case LBRACE:
                constructor();
                return Kind.OTHER;
            case FUNCTION:
                next();
                body(false, t.getLine());
                return Kind.OTHER;
            default:
                return suffixedExp();
        }
    }

    private static boolean isUnary(int type) {
        return type == NOT || type == MINUS || type == TILDE || type == HASH;
    }

    /** Left and right priorities of binary operators (PUC's priority table), or null. */
    static int[] priority(int type) {
        switch (type) {
            case PLUS: case MINUS: return P_ADD;
            case STAR: case PERCENT: case SLASH: case DSLASH: return P_MUL;
            case CARET: return P_POW;
            case AMP: return P_BAND;
            case PIPE: return P_BOR;
            case TILDE: return P_BXOR;
            case SHL: case SHR: return P_SHIFT;
            case CONCAT: return P_CONCAT;
            case EQ: case LT: case LE: case NE: case GT: case GE: return P_CMP;
            case AND: return P_AND;
            case OR: return P_OR;
            default: return null;
        }
    }

    private static final int[] P_ADD = {10, 10}, P_MUL = {11, 11}, P_POW = {14, 13},
        P_BAND = {6, 6}, P_BOR = {4, 4}, P_BXOR = {5, 5}, P_SHIFT = {7, 7}, P_CONCAT = {9, 8},
        P_CMP = {3, 3}, P_AND = {2, 2}, P_OR = {1, 1};
    static final int UNARY_PRIORITY = 12;

    /** subexpr -> (simpleexp | unop subexpr) { binop subexpr }; returns the first untreated operator. */
    private int subExpr(int limit) {
        enterLevel();
        if (isUnary(t.getType())) {
            next();
            subExpr(UNARY_PRIORITY);
        } else {
            simpleExp();
        }
        int op = t.getType();
        int[] p = priority(op);
        while (p != null && p[0] > limit) {
            next();
            op = subExpr(p[1]);
            p = priority(op);
        }
        leaveLevel();
        return op;
    }
}
