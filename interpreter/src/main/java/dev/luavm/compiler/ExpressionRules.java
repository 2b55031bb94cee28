package dev.luavm.compiler;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.ExpDesc.Kind;
import dev.luavm.compiler.FuncState.BinOpr;
import dev.luavm.compiler.FuncState.UnOpr;
import dev.luavm.grammar.LuaParser;
import dev.luavm.grammar.LuaParser.*;
import dev.luavm.value.LuaString;
import java.util.ArrayList;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * The frames of the expression rules (PUC's {@code subexpr}, {@code simpleexp},
 * {@code suffixedexp}, {@code funcargs}, {@code constructor} and {@code body}). Each gets the
 * expression descriptor its result goes to from the frame around it, as PUC's functions get an
 * {@code expdesc *v}. An operator chain is folded as it streams past: a left-associative level
 * folds each operand as it ends; the right-associative {@code ..} and {@code ^} keep their
 * pending left operands (at most one per C level, which the {@link SyntaxChecker} bounds) and
 * fold them when their rule ends, as PUC's recursion does when it unwinds.
 */
final class ExpressionRules {
    private ExpressionRules() {}

    /** The frame of expression rule {@code ctx}, its value going to {@code v}. */
    static RuleFrame operand(Compiler c, ParserRuleContext ctx, ExpDesc v) {
        switch (ctx.getRuleIndex()) {
            case LuaParser.RULE_exp: case LuaParser.RULE_orExp: case LuaParser.RULE_andExp:
            case LuaParser.RULE_cmpExp: case LuaParser.RULE_borExp: case LuaParser.RULE_bxorExp:
            case LuaParser.RULE_bandExp: case LuaParser.RULE_shiftExp: case LuaParser.RULE_addExp:
            case LuaParser.RULE_mulExp:
                return c.leftAssoc(v);
            case LuaParser.RULE_concatExp:
                return new Concat(c, v);
            case LuaParser.RULE_unaryExp:
                return new Unary(c, v);
            case LuaParser.RULE_powExp:
                return new Pow(c, v);
            case LuaParser.RULE_simpleExp:
                if (ctx instanceof FunctionExpContext) return new FunctionExp(c, v);
                if (ctx instanceof TableExpContext || ctx instanceof SuffixedSimpleExpContext) return new Pass(c, v);
                return new Literal(c, v);
            case LuaParser.RULE_tableConstructor:
                return new Constructor(c, v);
            case LuaParser.RULE_suffixedExp:
                return new Suffixed(c, v);
            default:
                throw new AssertionError("not an expression: " + ctx.getClass().getSimpleName());
        }
    }

    static BinOpr binOpr(int type) {
        switch (type) {
            case LuaParser.PLUS: return BinOpr.ADD;
            case LuaParser.MINUS: return BinOpr.SUB;
            case LuaParser.STAR: return BinOpr.MUL;
            case LuaParser.PERCENT: return BinOpr.MOD;
            case LuaParser.CARET: return BinOpr.POW;
            case LuaParser.SLASH: return BinOpr.DIV;
            case LuaParser.DSLASH: return BinOpr.IDIV;
            case LuaParser.AMP: return BinOpr.BAND;
            case LuaParser.PIPE: return BinOpr.BOR;
            case LuaParser.TILDE: return BinOpr.BXOR;
            case LuaParser.SHL: return BinOpr.SHL;
            case LuaParser.SHR: return BinOpr.SHR;
            case LuaParser.CONCAT: return BinOpr.CONCAT;
            case LuaParser.EQ: return BinOpr.EQ;
            case LuaParser.LT: return BinOpr.LT;
            case LuaParser.LE: return BinOpr.LE;
            case LuaParser.NE: return BinOpr.NE;
            case LuaParser.GT: return BinOpr.GT;
            case LuaParser.GE: return BinOpr.GE;
            case LuaParser.AND: return BinOpr.AND;
            case LuaParser.OR: return BinOpr.OR;
            default: throw new AssertionError("not a binary operator: " + type);
        }
    }

    static UnOpr unOpr(int type) {
        switch (type) {
            case LuaParser.NOT: return UnOpr.NOT;
            case LuaParser.MINUS: return UnOpr.MINUS;
            case LuaParser.TILDE: return UnOpr.BNOT;
            default: return UnOpr.LEN;
        }
    }

    /** An expression frame: where its value goes. */
    abstract static class Exp extends RuleFrame {
        /** where the value goes (set again only when a pooled {@link LeftAssoc} is reused) */
        ExpDesc v;

        Exp(Compiler c, ExpDesc v) {
            super(c);
            this.v = v;
        }
    }

    /** A rule whose one child is the expression itself (simpleExp : tableConstructor | suffixedExp). */
    static final class Pass extends Exp {
        Pass(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return operand(c, ctx, v);
        }
    }

    /**
     * exp : orExp ; and every left-associative level, e.g. addExp : mulExp (('+'|'-') mulExp)*
     * -- operand (op operand)*, each operand folded in as it ends (PUC's subexpr loop). An
     * operand crosses ten of these levels, so they are pooled, one per nesting depth
     * ({@link Compiler#leftAssoc}): nothing keeps a frame once its rule has ended.
     */
    static final class LeftAssoc extends Exp {
        private ExpDesc v2;
        private BinOpr op;
        private int line;
        private boolean started;

        LeftAssoc(Compiler c, ExpDesc v) {
            super(c, v);
        }

        /** Ready for another invocation of its level (the frame is pooled by nesting depth). */
        LeftAssoc reset(ExpDesc v) {
            this.v = v;
            v2 = null;
            op = null;
            started = false;
            return this;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (!started) {
                started = true;
                return operand(c, ctx, v);
            }
            v2 = new ExpDesc();
            return operand(c, ctx, v2);
        }

        @Override
        void token(Token t) {
            op = binOpr(t.getType());
            line = t.getLine();
            c.fs.infix(op, v);
        }

        @Override
        void childDone(RuleFrame child) {
            if (op != null) {
                c.fs.posfix(op, v, v2, line);
                op = null;
            }
        }
    }

    /** concatExp : addExp ('..' addExp)* -- right associative: a .. (b .. c). */
    static final class Concat extends Exp {
        private ArrayList<ExpDesc> pending;
        private int[] lines;
        private ExpDesc cur;

        Concat(Compiler c, ExpDesc v) {
            super(c, v);
            cur = v;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (pending != null) cur = new ExpDesc();
            return operand(c, ctx, cur);
        }

        @Override
        void token(Token t) {
            c.fs.infix(BinOpr.CONCAT, cur);
            if (pending == null) {
                pending = new ArrayList<>();
                lines = new int[4];
            }
            if (pending.size() == lines.length) lines = java.util.Arrays.copyOf(lines, lines.length * 2);
            lines[pending.size()] = t.getLine();
            pending.add(cur);
        }

        @Override
        void exit() {
            if (pending == null) return;
            for (int k = pending.size() - 1; k >= 0; k--) {
                ExpDesc left = pending.get(k);
                c.fs.posfix(BinOpr.CONCAT, left, cur, lines[k]);
                cur = left;
            }
        }
    }

    /** unaryExp : ('not'|'#'|'-'|'~')* powExp -- operators apply innermost first. */
    static final class Unary extends Exp {
        /** the operators' tokens: type and line */
        private int[] ops;
        private int nops;

        Unary(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void token(Token t) {
            if (ops == null) ops = new int[8];
            else if (nops * 2 == ops.length) ops = java.util.Arrays.copyOf(ops, ops.length * 2);
            ops[2 * nops] = t.getType();
            ops[2 * nops + 1] = t.getLine();
            nops++;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return operand(c, ctx, v);
        }

        @Override
        void exit() {
            for (int i = nops - 1; i >= 0; i--) c.fs.prefix(unOpr(ops[2 * i]), v, ops[2 * i + 1]);
        }
    }

    /**
     * powExp : simpleExp ('^' ('not'|'#'|'-'|'~')* simpleExp)* -- right associative, and each
     * right operand may carry unary operators: a ^ -b ^ c is a ^ (-(b ^ c)).
     */
    static final class Pow extends Exp {
        /** pending left operands, with their '^' and the unary operators of their right operand */
        private ArrayList<ExpDesc> pending;
        private ArrayList<int[]> tails;
        private ExpDesc cur;

        Pow(Compiler c, ExpDesc v) {
            super(c, v);
            cur = v;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (pending != null) cur = new ExpDesc();
            return operand(c, ctx, cur);
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.CARET) {
                c.fs.infix(BinOpr.POW, cur);
                if (pending == null) {
                    pending = new ArrayList<>();
                    tails = new ArrayList<>();
                }
                pending.add(cur);
                tails.add(new int[] {t.getLine()}); // the caret's line, then (type, line) per unary operator
            } else {
                int[] tail = tails.get(tails.size() - 1);
                tail = java.util.Arrays.copyOf(tail, tail.length + 2);
                tail[tail.length - 2] = t.getType();
                tail[tail.length - 1] = t.getLine();
                tails.set(tails.size() - 1, tail);
            }
        }

        @Override
        void exit() {
            if (pending == null) return;
            for (int k = pending.size() - 1; k >= 0; k--) {
                int[] tail = tails.get(k);
                for (int u = tail.length - 2; u >= 1; u -= 2) c.fs.prefix(unOpr(tail[u]), cur, tail[u + 1]);
                ExpDesc left = pending.get(k);
                c.fs.posfix(BinOpr.POW, left, cur, tail[0]);
                cur = left;
            }
        }
    }

    /** simpleExp : nil | false | true | INT | FLOAT | STRING | '...' -- set before the token is read. */
    static final class Literal extends Exp {
        Literal(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            Token t = ctx.getStart();
            switch (t.getType()) {
                case LuaParser.INT:
                    v.init(Kind.VKINT, 0);
                    v.ival = (Long) Compiler.value(t);
                    break;
                case LuaParser.FLOAT:
                    v.init(Kind.VKFLT, 0);
                    v.nval = (Double) Compiler.value(t);
                    break;
                case LuaParser.STRING:
                    v.init(Kind.VK, c.fs.stringK((LuaString) Compiler.value(t)));
                    break;
                case LuaParser.NIL:
                    v.init(Kind.VNIL, 0);
                    break;
                case LuaParser.TRUE:
                    v.init(Kind.VTRUE, 0);
                    break;
                case LuaParser.FALSE:
                    v.init(Kind.VFALSE, 0);
                    break;
                case LuaParser.ELLIPSIS:
                    v.init(Kind.VVARARG, c.fs.codeABC(OpCode.VARARG, 0, 1, 0));
                    break;
                default:
                    throw new AssertionError("not a literal: " + t.getType());
            }
        }
    }

    /** simpleExp : 'function' funcBody */
    static final class FunctionExp extends Exp {
        FunctionExp(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new FuncBody(c, v, false, ctx.getStart().getLine());
        }
    }

    /** suffixedExp : primaryExp suffix* ; suffix : '.' NAME | '[' exp ']' | ':' NAME args | args */
    static final class Suffixed extends Exp {
        private int line;

        Suffixed(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            line = ctx.getStart().getLine();
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof NameExpContext) return new Name(c, v);
            if (ctx instanceof ParenExpContext) return new Paren(c, v);
            if (ctx instanceof FieldSuffixContext) return new Field(c, v);
            if (ctx instanceof IndexSuffixContext) return new Index(c, v);
            if (ctx instanceof MethodSuffixContext) return new Method(c, v, line);
            return new Call(c, v, line);
        }
    }

    /** primaryExp : NAME -- a local, an upvalue or _ENV.name. */
    static final class Name extends Exp {
        Name(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void token(Token t) {
            c.singleVar(Compiler.name(t), v);
        }
    }

    /** primaryExp : '(' exp ')' */
    static final class Paren extends Exp {
        Paren(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return operand(c, ctx, v);
        }

        @Override
        void exit() {
            c.fs.dischargeVars(v);
        }
    }

    /** suffix : '.' NAME (PUC's fieldsel) */
    static final class Field extends Exp {
        Field(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            c.fs.exp2anyregup(v);
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) c.fs.indexed(v, c.stringConstant(Compiler.name(t)));
        }
    }

    /** suffix : '[' exp ']' (PUC's yindex) */
    static final class Index extends Exp {
        private final ExpDesc key = new ExpDesc();

        Index(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            c.fs.exp2anyregup(v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return operand(c, ctx, key);
        }

        @Override
        void childDone(RuleFrame child) {
            c.fs.exp2val(key);
        }

        @Override
        void exit() {
            c.fs.indexed(v, key);
        }
    }

    /** suffix : ':' NAME args */
    static final class Method extends Exp {
        private final int line;

        Method(Compiler c, ExpDesc v, int line) {
            super(c, v);
            this.line = line;
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) c.fs.self(v, c.stringConstant(Compiler.name(t)));
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new Args(c, v, line);
        }
    }

    /** suffix : args -- the function goes to the next register first. */
    static final class Call extends Exp {
        private final int line;

        Call(Compiler c, ExpDesc v, int line) {
            super(c, v);
            this.line = line;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            c.fs.exp2nextreg(v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new Args(c, v, line);
        }
    }

    /** args : '(' expList? ')' | tableConstructor | STRING -- codes the CALL of {@code v} (PUC's funcargs). */
    static final class Args extends Exp {
        private final ExpDesc args = new ExpDesc();
        private final int line;

        Args(Compiler c, ExpDesc f, int line) {
            super(c, f);
            this.line = line;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            if (ctx instanceof StringArgsContext) {
                args.init(Kind.VK, c.fs.stringK((LuaString) Compiler.value(ctx.getStart())));
            }
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof ExpListContext) return new ExpList(c, args);
            return new Constructor(c, args);
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof ExpList) c.fs.setMultRet(args);
        }

        @Override
        void exit() {
            c.call(v, args, line);
        }
    }

    /** expList : exp (',' exp)* -- all but the last value go to registers. */
    static final class ExpList extends Exp {
        /** expressions so far */
        int n;

        ExpList(Compiler c, ExpDesc v) {
            super(c, v);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (n > 0) c.fs.exp2nextreg(v);
            v.init(Kind.VVOID, 0);
            n++;
            return operand(c, ctx, v);
        }
    }

    /** Table constructor state (PUC's ConsControl). */
    private static final class ConsControl {
        final ExpDesc v = new ExpDesc(); // last list item read
        ExpDesc t; // table descriptor
        int nh; // total number of 'record' elements
        int na; // total number of array elements
        int tostore; // number of array elements pending to be stored
    }

    /**
     * tableConstructor : '{' fieldList? '}' ; fieldList : field ((',' | ';') field)* (',' | ';')?
     * -- the fields are stored as they end, list items in batches of FIELDS_PER_FLUSH.
     */
    static final class Constructor extends Exp {
        private final ConsControl cc = new ConsControl();
        private int pc;

        Constructor(Compiler c, ExpDesc t) {
            super(c, t);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            pc = c.fs.codeABC(OpCode.NEWTABLE, 0, 0, 0);
            cc.t = v;
            v.init(Kind.VRELOCABLE, pc);
            c.fs.exp2nextreg(v); // fix it at stack top
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof FieldListContext) return new Through(this);
            closeListField();
            if (ctx instanceof PositionalFieldContext) return new ListField(this);
            return new RecField(this);
        }

        private void closeListField() {
            FuncState fs = c.fs;
            if (cc.v.k == Kind.VVOID) return; // there is no list item
            fs.exp2nextreg(cc.v);
            cc.v.k = Kind.VVOID;
            if (cc.tostore == OpCode.FIELDS_PER_FLUSH) {
                fs.setList(cc.t.info, cc.na, cc.tostore); // flush
                cc.tostore = 0;
            }
        }

        @Override
        void exit() {
            FuncState fs = c.fs;
            if (cc.tostore != 0) { // lastlistfield
                if (cc.v.hasMultRet()) {
                    fs.setMultRet(cc.v);
                    fs.setList(cc.t.info, cc.na, Compiler.LUA_MULTRET);
                    cc.na--; // do not count last expression (unknown number of elements)
                } else {
                    if (cc.v.k != Kind.VVOID) fs.exp2nextreg(cc.v);
                    fs.setList(cc.t.info, cc.na, cc.tostore);
                }
            }
            int i = fs.code[pc];
            i = Instr.setB(i, int2fb(cc.na)); // initial array size
            fs.code[pc] = Instr.setC(i, int2fb(cc.nh)); // initial hash size
        }
    }

    /** field : exp (PUC's listfield) */
    static final class ListField extends RuleFrame {
        private final ConsControl cc;

        ListField(Constructor owner) {
            super(owner.c);
            this.cc = owner.cc;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            cc.v.init(Kind.VVOID, 0);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return operand(c, ctx, cc.v);
        }

        @Override
        void exit() {
            cc.na++;
            cc.tostore++;
        }
    }

    /** field : '[' exp ']' '=' exp | NAME '=' exp (PUC's recfield) */
    static final class RecField extends RuleFrame {
        private final ConsControl cc;
        private int reg;
        private ExpDesc key;
        private final ExpDesc val = new ExpDesc();
        private int rkKey;

        RecField(Constructor owner) {
            super(owner.c);
            this.cc = owner.cc;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            reg = c.fs.freereg;
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (key == null) {
                key = new ExpDesc();
                return operand(c, ctx, key);
            }
            return operand(c, ctx, val);
        }

        @Override
        void childDone(RuleFrame child) {
            if (((Exp) child).v == key) c.fs.exp2val(key); // yindex, before ']' is read
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) {
                key = c.stringConstant(Compiler.name(t));
            } else if (t.getType() == LuaParser.ASSIGN) {
                cc.nh++;
                rkKey = c.fs.exp2RK(key);
            }
        }

        @Override
        void exit() {
            c.fs.codeABC(OpCode.SETTABLE, cc.t.info, rkKey, c.fs.exp2RK(val));
            c.fs.freereg = reg; // free registers
        }
    }

    /**
     * funcBody : '(' parList? ')' block 'end' ; parList : NAME (',' NAME)* (',' '...')? | '...'
     * -- a new function; its closure goes to the next register of the enclosing one.
     */
    static final class FuncBody extends Exp {
        private final boolean isMethod;
        private final int line;
        private FuncState parent;
        private FuncState f;
        private int protoIndex;
        private int nparams;

        FuncBody(Compiler c, ExpDesc e, boolean isMethod, int line) {
            super(c, e);
            this.isMethod = isMethod;
            this.line = line;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            parent = c.fs;
            protoIndex = parent.protos.size();
            parent.protos.add(null); // filled when the function is closed
            f = c.openFunc(line);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof ParListContext) return new Through(this);
            return new StatementRules.Block(c, StatementRules.Block.PLAIN, null);
        }

        @Override
        void before(Token t) {
            switch (t.getType()) {
                case LuaParser.RPAREN:
                    c.adjustLocalVars(nparams);
                    f.numParams = f.nactvar;
                    f.reserveRegs(f.nactvar);
                    break;
                case LuaParser.END:
                    f.lastLineDefined = t.getLine();
                    break;
                default:
            }
        }

        @Override
        void token(Token t) {
            switch (t.getType()) {
                case LuaParser.LPAREN:
                    if (isMethod) {
                        c.newLocalVar("self");
                        c.adjustLocalVars(1);
                    }
                    break;
                case LuaParser.NAME:
                    c.newLocalVar(Compiler.name(t));
                    nparams++;
                    break;
                case LuaParser.ELLIPSIS:
                    f.isVararg = true;
                    break;
                case LuaParser.END: {
                    // codeclosure: CLOSURE in the parent, before the function is closed (as PUC)
                    v.init(Kind.VRELOCABLE, parent.codeABx(OpCode.CLOSURE, 0, protoIndex));
                    parent.exp2nextreg(v);
                    Prototype p = c.closeFunc();
                    parent.protos.set(protoIndex, p);
                    break;
                }
                default:
            }
        }
    }

    /** PUC's luaO_int2fb: x as a "floating point byte" eeeeexxx, rounded up. */
    static int int2fb(int x) {
        int e = 0;
        if (x < 8) return x;
        while (x >= (8 << 4)) { // coarse steps
            x = (x + 0xf) >>> 4;
            e += 4;
        }
        while (x >= (8 << 1)) { // fine steps
            x = (x + 1) >>> 1;
            e++;
        }
        return ((e + 1) << 3) | (x - 8);
    }
}
