package dev.luavm.compiler;

import static dev.luavm.compiler.ExpDesc.NO_JUMP;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.Compiler.LabelDesc;
import dev.luavm.compiler.ExpDesc.Kind;
import dev.luavm.compiler.ExpressionRules.ExpList;
import dev.luavm.compiler.ExpressionRules.FuncBody;
import dev.luavm.compiler.ExpressionRules.Suffixed;
import dev.luavm.compiler.FuncState.BlockCnt;
import dev.luavm.grammar.LuaParser;
import dev.luavm.grammar.LuaParser.*;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * The frames of the statement rules (PUC's {@code statlist}, {@code statement} and the
 * functions it calls). A block compiles each statement as it arrives and keeps nothing of it
 * once it has ended, except PUC's pending state: labels waiting for the no-op statements after
 * them, gotos waiting for their labels.
 */
final class StatementRules {
    private StatementRules() {}

    /** chunk : block EOF -- the main function: vararg, with upvalue 0 = _ENV. */
    static final class Chunk extends RuleFrame {
        Prototype prototype;

        Chunk(Compiler c) {
            super(c);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            FuncState main = c.openFunc(0);
            main.isVararg = true;
            main.upvalues.add(new Prototype.UpvalueDesc("_ENV", true, 0));
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new Block(c, Block.PLAIN, null);
        }

        @Override
        void exit() {
            prototype = c.closeFunc();
        }
    }

    /**
     * block : stat* retStat? -- PUC's statlist, in a scope of its own or not.
     *
     * <p>PUC parses the no-op statements after a label (';' and more labels) inside the label
     * statement, and a label followed only by no-ops up to the end of its block is treated as
     * out of the scope of the block's locals: the labels of such a group are kept here until
     * the next statement (or the end of the block) shows which case it is.
     *
     * <p>The block of an {@code if} whose first statement is a goto or a break is PUC's special
     * case of {@code test_then_block}: the goto jumps on the condition itself, and a jump over
     * the rest is coded only if something other than ';' follows it.
     */
    static final class Block extends RuleFrame {
        /** the statements only: the function or the enclosing statement opened the scope */
        static final int PLAIN = 0;
        /** PUC's block(): a scope of its own */
        static final int SCOPED = 1;
        /** a repeat's body: its scope goes on into the condition, so labels at its end stay in it */
        static final int REPEAT = 2;
        /** an if's 'then' block that starts with a goto or a break (see {@link IfStat}) */
        static final int GOTO_FIRST = 3;

        private final int kind;
        private final IfStat ifStat;
        /** labels of the current group, or null */
        private List<LabelDesc> group;
        /** GOTO_FIRST: 0 = the goto is next, 1 = after it (skipping ';'), 2 = past the ';' */
        private int gotoPhase;

        Block(Compiler c, int kind, IfStat ifStat) {
            super(c);
            this.kind = kind;
            this.ifStat = ifStat;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            if (kind == SCOPED) c.enterBlock(new BlockCnt(), false);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (kind == GOTO_FIRST && gotoPhase < 2) {
                if (gotoPhase == 0) {
                    gotoPhase = 1;
                    return new GotoFirst(c, ctx, ifStat.v);
                }
                if (ctx instanceof EmptyStatContext) return new Tokens(c); // skip colons
                gotoPhase = 2;
                ifStat.jf = c.fs.jump(); // must skip over 'then' part if condition is false
            }
            if (ctx instanceof LabelStatContext) {
                if (group == null) group = new ArrayList<>(2);
                return new Label(c, ctx, group);
            }
            if (group != null && ctx instanceof EmptyStatContext) return new Tokens(c);
            closeLabels(false);
            if (ctx instanceof RetStatContext) return new RetStat(c);
            return statement(c, ctx);
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof Stat || child instanceof RetStat) {
                assert c.fs.maxStackSize >= c.fs.freereg && c.fs.freereg >= c.fs.nactvar;
                c.fs.freereg = c.fs.nactvar; // free registers
            }
        }

        @Override
        void exit() {
            if (kind == GOTO_FIRST && gotoPhase == 1) {
                ifStat.gotoOnly = true; // 'goto' is the entire block
                return;
            }
            closeLabels(kind != REPEAT);
            if (kind == SCOPED) c.leaveBlock();
        }

        /** The group of labels ends: its labels close their gotos, innermost label first. */
        private void closeLabels(boolean blockEnds) {
            if (group == null) return;
            for (int k = group.size() - 1; k >= 0; k--) {
                LabelDesc lb = group.get(k);
                if (blockEnds) lb.nactvar = c.fs.bl.nactvar;
                c.findGotos(lb);
            }
            c.fs.freereg = c.fs.nactvar;
            group = null;
        }
    }

    /** A rule of tokens only: ';' among the no-ops after a label or a leading goto. */
    static final class Tokens extends RuleFrame {
        Tokens(Compiler c) {
            super(c);
        }
    }

    /** labelStat : '::' NAME '::' -- creates the label; the block closes its gotos later. */
    static final class Label extends RuleFrame {
        private final List<LabelDesc> group;
        private final int line;
        private String label;

        Label(Compiler c, ParserRuleContext ctx, List<LabelDesc> group) {
            super(c);
            this.group = group;
            this.line = ctx.getStart().getLine();
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) {
                label = Compiler.name(t);
                c.checkRepeated(label);
            } else if (label != null) {
                group.add(c.newLabel(label, line));
            }
        }
    }

    /** The goto or break that starts a 'then' block: it jumps when the condition is true. */
    static final class GotoFirst extends RuleFrame {
        private final ExpDesc cond;
        private final int line;

        GotoFirst(Compiler c, ParserRuleContext ctx, ExpDesc cond) {
            super(c);
            this.cond = cond;
            this.line = ctx.getStart().getLine();
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) c.gotoStat(Compiler.name(t), line, cond.t);
            else if (t.getType() == LuaParser.BREAK) c.gotoStat("break", line, cond.t);
        }
    }

    /** The frame of statement {@code ctx} (any alternative of stat but labelStat). */
    static RuleFrame statement(Compiler c, ParserRuleContext ctx) {
        if (ctx instanceof ExprStatContext) return new ExprStat(c, ctx);
        if (ctx instanceof LocalStatContext) return new LocalStat(c, ctx);
        if (ctx instanceof IfStatContext) return new IfStat(c, ctx);
        if (ctx instanceof WhileStatContext) return new WhileStat(c, ctx);
        if (ctx instanceof DoStatContext) return new DoStat(c, ctx);
        if (ctx instanceof NumericForStatContext) return new ForStat(c, ctx, true);
        if (ctx instanceof GenericForStatContext) return new ForStat(c, ctx, false);
        if (ctx instanceof RepeatStatContext) return new RepeatStat(c, ctx);
        if (ctx instanceof FunctionStatContext) return new FunctionStat(c, ctx);
        if (ctx instanceof LocalFunctionStatContext) return new LocalFunctionStat(c, ctx);
        if (ctx instanceof GotoStatContext || ctx instanceof BreakStatContext) return new GotoStat(c, ctx);
        if (ctx instanceof EmptyStatContext) return new EmptyStat(c, ctx);
        throw new AssertionError("unexpected statement " + ctx.getClass());
    }

    /** A statement: it frees its registers when it ends (see {@link Block#childDone}). */
    abstract static class Stat extends RuleFrame {
        /** the line of its first token */
        final int line;

        Stat(Compiler c, ParserRuleContext ctx) {
            super(c);
            this.line = ctx.getStart().getLine();
        }
    }

    /** stat : ';' */
    static final class EmptyStat extends Stat {
        EmptyStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }
    }

    /** retStat : 'return' expList? ';'? */
    static final class RetStat extends RuleFrame {
        private final ExpDesc e = new ExpDesc();
        private boolean done;

        RetStat(Compiler c) {
            super(c);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new ExpList(c, e);
        }

        @Override
        void childDone(RuleFrame child) {
            FuncState fs = c.fs;
            int nret = ((ExpList) child).n;
            int first;
            if (e.hasMultRet()) {
                fs.setMultRet(e);
                if (e.k == Kind.VCALL && nret == 1) { // tail call
                    int i = fs.getInstruction(e);
                    fs.setInstruction(e, Instr.abc(OpCode.TAILCALL, Instr.a(i), Instr.b(i), Instr.c(i)));
                    assert Instr.a(i) == fs.nactvar;
                }
                first = fs.nactvar;
                nret = Compiler.LUA_MULTRET;
            } else if (nret == 1) {
                first = fs.exp2anyreg(e);
            } else {
                fs.exp2nextreg(e); // values must go to the stack
                first = fs.nactvar;
                assert nret == fs.freereg - first;
            }
            fs.ret(first, nret);
            done = true;
        }

        @Override
        void before(Token t) {
            if (t.getType() == LuaParser.SEMI) returnNothing();
        }

        @Override
        void exit() {
            returnNothing();
        }

        private void returnNothing() {
            if (!done) c.fs.ret(0, 0);
            done = true;
        }
    }

    /** exprStat : suffixedExp assignTail? ; assignTail : (',' suffixedExp)* '=' expList */
    static final class ExprStat extends Stat {
        private final ExpDesc v = new ExpDesc();
        /** the targets of an assignment, once its tail has started */
        private List<ExpDesc> targets;
        private final ExpDesc e = new ExpDesc();
        private int nexps;

        ExprStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof SuffixedExpContext) {
                if (targets == null) return new Suffixed(c, v);
                return new Suffixed(c, new ExpDesc());
            }
            if (ctx instanceof AssignTailContext) {
                targets = new ArrayList<>();
                targets.add(v);
                return new Through(this);
            }
            return new ExpList(c, e);
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof ExpList l) {
                nexps = l.n;
            } else if (targets != null) { // a further target (PUC's restassign)
                ExpDesc nv = ((Suffixed) child).v;
                if (nv.k != Kind.VINDEXED) c.checkConflict(targets, nv);
                targets.add(nv);
            }
        }

        @Override
        void exit() {
            FuncState fs = c.fs;
            if (targets == null) {
                // a call statement uses no results (the checker made sure it is a call)
                fs.setInstruction(v, Instr.setC(fs.getInstruction(v), 1));
                return;
            }
            int nvars = targets.size();
            int last = nvars - 1;
            if (nexps != nvars) {
                c.adjustAssign(nvars, nexps, e);
            } else {
                fs.setOneRet(e);
                fs.storeVar(targets.get(last), e);
                last--;
            }
            for (int i = last; i >= 0; i--) {
                e.init(Kind.VNONRELOC, fs.freereg - 1); // default assignment
                fs.storeVar(targets.get(i), e);
            }
        }
    }

    /** localStat : 'local' nameList ('=' expList)? */
    static final class LocalStat extends Stat {
        private final ExpDesc e = new ExpDesc();
        private int nvars;
        private int nexps;

        LocalStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof NameListContext) return new Through(this);
            return new ExpList(c, e);
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) {
                c.newLocalVar(Compiler.name(t));
                nvars++;
            }
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof ExpList l) nexps = l.n;
        }

        @Override
        void exit() {
            c.adjustAssign(nvars, nexps, e);
            c.adjustLocalVars(nvars);
        }
    }

    /** localFunctionStat : 'local' 'function' NAME funcBody */
    static final class LocalFunctionStat extends Stat {
        private final ExpDesc b = new ExpDesc();

        LocalFunctionStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) {
                c.newLocalVar(Compiler.name(t));
                c.adjustLocalVars(1); // enter its scope
            }
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new FuncBody(c, b, false, ctx.getStart().getLine());
        }

        @Override
        void childDone(RuleFrame child) {
            // debug information will only see the variable after this point
            c.getLocVar(c.fs, b.info).startPc = c.fs.pc;
        }
    }

    /** functionStat : 'function' funcName funcBody ; funcName : NAME ('.' NAME)* (':' NAME)? */
    static final class FunctionStat extends Stat {
        private final ExpDesc v = new ExpDesc();
        private final ExpDesc b = new ExpDesc();
        private boolean named;
        private boolean isMethod;

        FunctionStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof FuncNameContext) return new Through(this);
            return new FuncBody(c, b, isMethod, line);
        }

        @Override
        void before(Token t) {
            if (t.getType() == LuaParser.DOT || t.getType() == LuaParser.COLON) { // fieldsel
                c.fs.exp2anyregup(v);
                if (t.getType() == LuaParser.COLON) isMethod = true;
            }
        }

        @Override
        void token(Token t) {
            if (t.getType() != LuaParser.NAME) return;
            if (!named) {
                named = true;
                c.singleVar(Compiler.name(t), v);
            } else {
                c.fs.indexed(v, c.stringConstant(Compiler.name(t)));
            }
        }

        @Override
        void exit() {
            c.fs.storeVar(v, b);
            c.fs.fixLine(line); // definition "happens" in the first line
        }
    }

    /**
     * ifStat : 'if' exp 'then' block elseIfPart* elsePart? 'end' ;
     * elseIfPart : 'elseif' exp 'then' block ; elsePart : 'else' block
     */
    static final class IfStat extends Stat {
        /** the condition being tested */
        ExpDesc v;
        /** the jump over the 'then' block when the condition is false */
        int jf;
        /** the 'then' block was a goto alone */
        boolean gotoOnly;
        private int escapeList = NO_JUMP;
        private boolean inElse;

        IfStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        void token(Token t) {
            switch (t.getType()) {
                case LuaParser.IF: case LuaParser.ELSEIF:
                    v = new ExpDesc();
                    break;
                case LuaParser.ELSE:
                    inElse = true;
                    break;
                case LuaParser.END:
                    c.fs.patchToHere(escapeList);
                    break;
                default:
            }
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof ElseIfPartContext || ctx instanceof ElsePartContext) return new Through(this);
            if (ctx instanceof ExpContext) return ExpressionRules.operand(c, ctx, v);
            if (inElse) return new Block(c, Block.SCOPED, null);
            // test_then_block, 'then' read
            gotoOnly = false;
            if (isGotoOrBreak(ctx.getStart().getType())) {
                c.fs.goIfFalse(v); // will jump to label if condition is true
                c.enterBlock(new BlockCnt(), false);
                return new Block(c, Block.GOTO_FIRST, this);
            }
            c.fs.goIfTrue(v); // skip over block if condition is false
            c.enterBlock(new BlockCnt(), false);
            jf = v.f;
            return new Block(c, Block.PLAIN, this);
        }

        private static boolean isGotoOrBreak(int type) {
            return type == LuaParser.GOTO || type == LuaParser.BREAK;
        }

        @Override
        void childDone(RuleFrame child) {
            if (!(child instanceof Block) || inElse) return;
            c.leaveBlock();
            if (gotoOnly) return;
            int next = c.current().getType();
            if (next == LuaParser.ELSE || next == LuaParser.ELSEIF) {
                escapeList = c.fs.concat(escapeList, c.fs.jump()); // must jump over it
            }
            c.fs.patchToHere(jf);
        }
    }

    /** whileStat : 'while' exp 'do' block 'end' */
    static final class WhileStat extends Stat {
        private final ExpDesc v = new ExpDesc();
        private int whileInit;
        private int condExit;

        WhileStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.WHILE) {
                whileInit = c.fs.getLabel();
            } else if (t.getType() == LuaParser.END) {
                c.leaveBlock();
                c.fs.patchToHere(condExit); // false conditions finish the loop
            }
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof ExpContext) return ExpressionRules.operand(c, ctx, v);
            return new Block(c, Block.SCOPED, null);
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof Block) {
                c.fs.patchList(c.fs.jump(), whileInit);
            } else {
                condExit = c.cond(v);
                c.enterBlock(new BlockCnt(), true);
            }
        }
    }

    /** stat : 'do' block 'end' */
    static final class DoStat extends Stat {
        DoStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            return new Block(c, Block.SCOPED, null);
        }
    }

    /** repeatStat : 'repeat' block 'until' exp -- the condition sees the body's locals. */
    static final class RepeatStat extends Stat {
        private final BlockCnt bl2 = new BlockCnt();
        private final ExpDesc v = new ExpDesc();
        private int repeatInit;

        RepeatStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            repeatInit = c.fs.getLabel();
            c.enterBlock(new BlockCnt(), true); // loop block
            c.enterBlock(bl2, false); // scope block
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof ExpContext) return ExpressionRules.operand(c, ctx, v);
            return new Block(c, Block.REPEAT, null);
        }

        @Override
        void childDone(RuleFrame child) {
            if (child instanceof Block) return;
            int condExit = c.cond(v);
            if (bl2.upval) c.fs.patchClose(condExit, bl2.nactvar);
            c.leaveBlock(); // finish scope
            c.fs.patchList(condExit, repeatInit); // close the loop
            c.leaveBlock(); // finish loop
        }
    }

    /**
     * numericForStat : 'for' NAME '=' exp ',' exp (',' exp)? 'do' block 'end' ;
     * genericForStat : 'for' nameList 'in' expList 'do' block 'end' -- and PUC's forbody:
     * FORPREP/FORLOOP or JMP/TFORCALL/TFORLOOP around the body.
     */
    static final class ForStat extends Stat {
        private final boolean isNum;
        private int base;
        /** the loop's own variables (1 for a numeric loop) */
        private int nvars;
        private int nexps;
        private ExpDesc e = new ExpDesc();
        /** the line given to FORLOOP or TFORCALL/TFORLOOP */
        private int loopLine;
        private int prep;

        ForStat(Compiler c, ParserRuleContext ctx, boolean isNum) {
            super(c, ctx);
            this.isNum = isNum;
            this.loopLine = line;
        }

        @Override
        void enter(ParserRuleContext ctx) {
            c.enterBlock(new BlockCnt(), true); // scope for loop and control variables
        }

        @Override
        void token(Token t) {
            switch (t.getType()) {
                case LuaParser.FOR:
                    if (!isNum) {
                        base = c.fs.freereg;
                        c.newLocalVar("(for generator)");
                        c.newLocalVar("(for state)");
                        c.newLocalVar("(for control)");
                    }
                    break;
                case LuaParser.NAME:
                    if (isNum) {
                        base = c.fs.freereg;
                        c.newLocalVar("(for index)");
                        c.newLocalVar("(for limit)");
                        c.newLocalVar("(for step)");
                    }
                    c.newLocalVar(Compiler.name(t));
                    nvars++;
                    break;
                case LuaParser.DO:
                    forBodyStart();
                    break;
                case LuaParser.END:
                    c.leaveBlock(); // loop scope ('break' jumps to this point)
                    break;
                default:
            }
        }

        @Override
        void before(Token t) {
            if (t.getType() == LuaParser.DO) c.adjustLocalVars(3); // control variables
        }

        @Override
        RuleFrame child(ParserRuleContext ctx) {
            if (ctx instanceof NameListContext) return new Through(this);
            if (ctx instanceof ExpListContext) {
                loopLine = ctx.getStart().getLine();
                return new ExpList(c, e);
            }
            if (ctx instanceof ExpContext) {
                e = new ExpDesc();
                nexps++;
                return ExpressionRules.operand(c, ctx, e);
            }
            return new Block(c, Block.SCOPED, null);
        }

        @Override
        void childDone(RuleFrame child) {
            FuncState fs = c.fs;
            if (child instanceof ExpList l) {
                c.adjustAssign(3, l.n, e);
                fs.checkStack(3); // extra space to call generator
            } else if (child instanceof Block) {
                forBodyEnd();
            } else { // exp1 of a numeric header
                fs.exp2nextreg(e);
                if (nexps == 2 && c.current().getType() != LuaParser.COMMA) { // default step = 1
                    fs.codeK(fs.freereg, fs.intK(1));
                    fs.reserveRegs(1);
                }
            }
        }

        /** forbody, 'do' read */
        private void forBodyStart() {
            FuncState fs = c.fs;
            prep = isNum ? fs.codeAsBx(OpCode.FORPREP, base, NO_JUMP) : fs.jump();
            c.enterBlock(new BlockCnt(), false); // scope for declared variables
            c.adjustLocalVars(nvars);
            fs.reserveRegs(nvars);
        }

        /** forbody, its block parsed */
        private void forBodyEnd() {
            FuncState fs = c.fs;
            c.leaveBlock();
            fs.patchToHere(prep);
            int endFor;
            if (isNum) {
                endFor = fs.codeAsBx(OpCode.FORLOOP, base, NO_JUMP);
            } else {
                fs.codeABC(OpCode.TFORCALL, base, 0, nvars);
                fs.fixLine(loopLine);
                endFor = fs.codeAsBx(OpCode.TFORLOOP, base + 2, NO_JUMP);
            }
            fs.patchList(endFor, prep + 1);
            fs.fixLine(loopLine);
        }
    }

    /** gotoStat : 'goto' NAME ; breakStat : 'break' -- the jump is coded before the keyword is read, as PUC. */
    static final class GotoStat extends Stat {
        private int pc;

        GotoStat(Compiler c, ParserRuleContext ctx) {
            super(c, ctx);
        }

        @Override
        void enter(ParserRuleContext ctx) {
            pc = c.fs.jump();
        }

        @Override
        void token(Token t) {
            if (t.getType() == LuaParser.NAME) c.gotoStat(Compiler.name(t), line, pc);
            else if (t.getType() == LuaParser.BREAK) c.gotoStat("break", line, pc);
        }
    }
}
