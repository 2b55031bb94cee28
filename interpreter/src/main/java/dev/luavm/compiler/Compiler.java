package dev.luavm.compiler;

import static dev.luavm.compiler.ExpDesc.NO_JUMP;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.ExpDesc.Kind;
import dev.luavm.compiler.FuncState.BinOpr;
import dev.luavm.compiler.FuncState.BlockCnt;
import dev.luavm.compiler.FuncState.UnOpr;
import dev.luavm.grammar.LuaParser;
import dev.luavm.grammar.LuaParser.*;
import dev.luavm.value.LuaString;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Compiles a parse tree of {@code Lua.g4} to a {@link Prototype}: the parser half of PUC's
 * {@code lparser.c} (scopes, variables, statements, the order in which code for expressions is
 * generated), walking the tree in source order and driving the code generator
 * {@link FuncState}. Each method names the grammar rule it compiles.
 *
 * <p>PUC generates code while reading tokens, and the line of an instruction is the line of the
 * last token read. The walker reproduces that with {@link #at(Token)}, called where PUC's
 * parser moves past a token; the token after it is the one compile errors are "near".
 *
 * <p>The tree is known to be valid Lua and nested at most 200 levels deep (the
 * {@link SyntaxChecker} ran first), so the walker's recursion is bounded; flat chains (long
 * operator chains, suffix chains, statement lists) are compiled by loops.
 */
final class Compiler {
    static final int LUA_MULTRET = -1;
    /** Maximum number of local variables per function (PUC's MAXVARS). */
    static final int MAXVARS = 200;

    private final CompileErrors errors;
    private final List<LuaToken> tokens;
    private final LuaString source;
    /** line of the last token read, given to new instructions (PUC's lastline) */
    int lastLine = 1;
    /** index of the last token read */
    private int lastIdx = -1;
    private FuncState fs;
    /**
     * Active labels and pending gotos of all open functions (the sizes of PUC's Dyndata lists,
     * which bound them); the entries themselves live in their blocks, found by name.
     */
    private int activeLabels;
    private int activeGotos;
    /** pays for the compilation's work and heap */
    final CompileAccount account;
    /** Names the compiler writes itself; the lexer interns names to these very objects. */
    static final List<String> BUILTIN_NAMES = List.of("_ENV", "self", "break");
    /**
     * One LuaString per distinct string constant of the chunk, so a field name written in one
     * function ({@code {x = ...}}) and read in another ({@code b.x}) is the same object and the
     * table probe matches by identity instead of comparing bytes.
     */
    private final java.util.HashMap<LuaString, LuaString> strings = new java.util.HashMap<>();
    /** constant keys to the index they last got in any function (PUC's ls->h) */
    final Map<ConstantKey, Integer> constantScanner = new HashMap<>();

    /** A label or a pending goto. */
    static final class LabelDesc {
        final String name;
        int pc;
        final int line;
        int nactvar;
        /** a goto closed by a label (it stays in its block's list until the block ends) */
        boolean closed;

        LabelDesc(String name, int pc, int line, int nactvar) {
            this.name = name;
            this.pc = pc;
            this.line = line;
            this.nactvar = nactvar;
        }
    }

    Compiler(CompileErrors errors, List<LuaToken> tokens, String chunkName, CompileAccount account) {
        this.errors = errors;
        this.account = account;
        this.tokens = tokens;
        this.source = CompileErrors.latin1(chunkName);
    }

    // ------------------------------------------------------------------ tokens and errors

    /** PUC's luaX_next past {@code tk}: later code gets its line. */
    private void at(Token tk) {
        lastLine = tk.getLine();
        lastIdx = tk.getTokenIndex();
    }

    private void at(TerminalNode n) {
        at(n.getSymbol());
    }

    /** The token PUC would be looking at: the one after the last token read. */
    private LuaToken current() {
        int i = Math.min(lastIdx + 1, tokens.size() - 1);
        return tokens.get(i);
    }

    /** A syntax error near the current token (PUC's luaX_syntaxerror). */
    RuntimeException syntaxError(String msg) {
        LuaToken tk = current();
        return errors.syntax(tk.getLine(), msg, LuaLexer.tokenText(tk.getType(), tk.getText()));
    }

    /** An error without "near" (PUC's semerror). */
    private RuntimeException semError(String msg) {
        return errors.semantic(current().getLine(), msg);
    }

    private void checkLimit(int v, int limit, String what) {
        if (v > limit) throw syntaxError(CompileErrors.limitMessage(fs.lineDefined, limit, what));
    }

    private static String name(TerminalNode n) {
        return (String) ((LuaToken) n.getSymbol()).value;
    }

    private static Token first(ParserRuleContext ctx) {
        return ctx.getStart();
    }

    // ------------------------------------------------------------------ functions

    /** chunk : block EOF -- the main function: vararg, with upvalue 0 = _ENV. */
    Prototype mainFunc(ChunkContext chunk) {
        FuncState main = openFunc(0);
        main.isVararg = true;
        main.upvalues.add(new Prototype.UpvalueDesc("_ENV", true, 0));
        statList(chunk.block());
        return closeFunc();
    }

    private FuncState openFunc(int line) {
        FuncState f = new FuncState(fs, this, line);
        fs = f;
        enterBlock(new BlockCnt(), false);
        return f;
    }

    private Prototype closeFunc() {
        FuncState f = fs;
        f.ret(0, 0); // final return
        leaveBlock();
        Prototype p = f.toPrototype(source);
        fs = f.prev;
        return p;
    }

    /** funcBody : '(' parList? ')' block 'end' -- leaves the closure in the next register. */
    private void body(FuncBodyContext ctx, ExpDesc e, boolean isMethod, int line) {
        FuncState parent = fs;
        int protoIndex = parent.protos.size();
        parent.protos.add(null); // filled when the function is closed
        FuncState f = openFunc(line);
        at(ctx.LPAREN());
        if (isMethod) {
            newLocalVar("self");
            adjustLocalVars(1);
        }
        // parList : NAME (',' NAME)* (',' '...')? | '...'
        int nparams = 0;
        ParList parList = ctx.parList() == null ? null : new ParList(ctx.parList());
        if (parList != null) {
            for (TerminalNode p : parList.names) {
                at(p);
                newLocalVar(name(p));
                nparams++;
            }
            f.isVararg = parList.vararg;
        }
        adjustLocalVars(nparams);
        f.numParams = f.nactvar;
        f.reserveRegs(f.nactvar);
        at(ctx.RPAREN());
        statList(ctx.block());
        f.lastLineDefined = ctx.END().getSymbol().getLine();
        at(ctx.END());
        // codeclosure: CLOSURE in the parent, before the function is closed (as PUC)
        e.init(Kind.VRELOCABLE, parent.codeABx(OpCode.CLOSURE, 0, protoIndex));
        parent.exp2nextreg(e);
        Prototype p = closeFunc();
        parent.protos.set(protoIndex, p);
    }

    private static final class ParList {
        final List<TerminalNode> names = new ArrayList<>();
        boolean vararg;

        ParList(ParListContext ctx) {
            for (ParseTree c : ctx.children) {
                if (c instanceof TerminalNode tn) {
                    if (tn.getSymbol().getType() == LuaParser.NAME) names.add(tn);
                    else if (tn.getSymbol().getType() == LuaParser.ELLIPSIS) vararg = true;
                }
            }
        }
    }

    // ------------------------------------------------------------------ variables

    private FuncState.LocVar getLocVar(FuncState f, int i) {
        return f.locVars.get(f.actVars.get(i));
    }

    private void newLocalVar(String name) {
        fs.locVars.add(new FuncState.LocVar(name));
        checkLimit(fs.actVars.size() + 1, MAXVARS, "local variables");
        fs.actVars.add(fs.locVars.size() - 1);
    }

    private void adjustLocalVars(int nvars) {
        fs.nactvar += nvars;
        for (; nvars > 0; nvars--) getLocVar(fs, fs.nactvar - nvars).startPc = fs.pc;
    }

    private void removeVars(int toLevel) {
        while (fs.nactvar > toLevel) {
            getLocVar(fs, --fs.nactvar).endPc = fs.pc;
            fs.actVars.remove(fs.actVars.size() - 1);
        }
    }

    /** Names are interned by the lexer (and {@link #BUILTIN_NAMES}): compared by identity. */
    private int searchVar(FuncState f, String n) {
        account.scan(f.nactvar);
        for (int i = f.nactvar - 1; i >= 0; i--) {
            if (f.locVars.get(f.actVars.get(i)).name == n) return i;
        }
        return -1;
    }

    private static void markUpval(FuncState f, int level) {
        BlockCnt bl = f.bl;
        while (bl.nactvar > level) bl = bl.previous;
        bl.upval = true;
    }

    private int searchUpvalue(FuncState f, String n) {
        account.scan(f.upvalues.size());
        for (int i = 0; i < f.upvalues.size(); i++) {
            if (f.upvalues.get(i).name() == n) return i;
        }
        return -1;
    }

    private int newUpvalue(FuncState f, String name, ExpDesc v) {
        if (f.upvalues.size() + 1 > FuncState.MAXUPVAL) {
            throw syntaxError(CompileErrors.limitMessage(f.lineDefined, FuncState.MAXUPVAL, "upvalues"));
        }
        f.upvalues.add(new Prototype.UpvalueDesc(name, v.k == Kind.VLOCAL, v.info));
        return f.upvalues.size() - 1;
    }

    /** Finds {@code n} as a local, an upvalue, or (VVOID) a global, as PUC's singlevaraux. */
    private void singleVarAux(FuncState f, String n, ExpDesc var, boolean base) {
        if (f == null) {
            var.init(Kind.VVOID, 0); // global
            return;
        }
        int v = searchVar(f, n);
        if (v >= 0) {
            var.init(Kind.VLOCAL, v);
            if (!base) markUpval(f, v); // local will be used as an upvalue
            return;
        }
        int idx = searchUpvalue(f, n);
        if (idx < 0) {
            singleVarAux(f.prev, n, var, false);
            if (var.k == Kind.VVOID) return; // a global
            idx = newUpvalue(f, n, var);
        }
        var.init(Kind.VUPVAL, idx);
    }

    /** primaryExp : NAME -- a local, an upvalue or _ENV.name. */
    private void singleVar(TerminalNode nameNode, ExpDesc var) {
        at(nameNode);
        String n = name(nameNode);
        singleVarAux(fs, n, var, true);
        if (var.k == Kind.VVOID) {
            singleVarAux(fs, "_ENV", var, true);
            assert var.k != Kind.VVOID;
            ExpDesc key = stringConstant(n);
            fs.indexed(var, key);
        }
    }

    private ExpDesc stringConstant(String s) {
        return new ExpDesc(Kind.VK, fs.stringK(LuaString.ofLatin1(s)));
    }

    // ------------------------------------------------------------------ blocks, labels, gotos

    private void enterBlock(BlockCnt bl, boolean isLoop) {
        bl.isLoop = isLoop;
        bl.nactvar = fs.nactvar;
        bl.upval = false;
        bl.previous = fs.bl;
        fs.bl = bl;
        assert fs.freereg == fs.nactvar;
    }

    private void leaveBlock() {
        BlockCnt bl = fs.bl;
        if (bl.previous != null && bl.upval) {
            // a 'jump to here' that closes upvalues
            int j = fs.jump();
            fs.patchClose(j, bl.nactvar);
            fs.patchToHere(j);
        }
        if (bl.isLoop) breakLabel(); // close pending breaks
        fs.bl = bl.previous;
        removeVars(bl.nactvar);
        assert bl.nactvar == fs.nactvar;
        fs.freereg = fs.nactvar; // free registers
        activeLabels -= bl.jumps.labelCount(); // remove local labels
        if (bl.previous != null) {
            moveGotosOut(bl);
        } else {
            LabelDesc first = bl.jumps.firstPending();
            if (first != null) undefGoto(first);
        }
    }

    private RuntimeException undefGoto(LabelDesc gt) {
        String msg = gt.name.equals("break")
            ? "<break> at line " + gt.line + " not inside a loop"
            : "no visible label '" + gt.name + "' for <goto> at line " + gt.line;
        throw semError(msg);
    }

    /** Pending gotos of a closed block become pending gotos of the enclosing block. */
    private void moveGotosOut(BlockCnt bl) {
        List<LabelDesc> pending = bl.jumps.gotos();
        account.scan(pending.size());
        for (LabelDesc gt : pending) {
            if (gt.closed) continue;
            if (gt.nactvar > bl.nactvar) {
                if (bl.upval) fs.patchClose(gt.pc, bl.nactvar);
                gt.nactvar = bl.nactvar;
            }
            if (findLabel(gt)) activeGotos--;
            else fs.bl.jumps.addGoto(gt); // keep it pending
        }
    }

    /** Closes goto {@code gt} with a visible label of the current block, if there is one. */
    private boolean findLabel(LabelDesc gt) {
        BlockCnt bl = fs.bl;
        LabelDesc lb = bl.jumps.label(gt.name);
        if (lb == null) return false;
        if (gt.nactvar > lb.nactvar) { // PUC also asks (bl->upval || the block has labels): it has lb
            fs.patchClose(gt.pc, lb.nactvar);
        }
        closeGoto(gt, lb);
        return true;
    }

    private void closeGoto(LabelDesc gt, LabelDesc label) {
        if (gt.nactvar < label.nactvar) {
            String vname = getLocVar(fs, gt.nactvar).name;
            throw semError("<goto " + gt.name + "> at line " + gt.line
                + " jumps into the scope of local '" + vname + "'");
        }
        fs.patchList(gt.pc, label.pc);
    }

    /** Closes the pending gotos of the current block that go to label {@code lb}. */
    private void findGotos(LabelDesc lb) {
        for (LabelDesc gt : fs.bl.jumps.takeGotos(lb.name)) {
            closeGoto(gt, lb);
            gt.closed = true;
            activeGotos--;
        }
    }

    /** PUC keeps labels and pending gotos in arrays of at most SHRT_MAX entries. */
    private static final int MAX_LABELS = Short.MAX_VALUE;

    /** The chunk's canonical instance of string constant {@code s}. */
    LuaString intern(LuaString s) {
        account.lookup(s.length(), strings.size());
        LuaString old = strings.putIfAbsent(s, s);
        return old != null ? old : s;
    }

    /** Raised by PUC's luaM_growvector when a Dyndata list is full: a plain message, without position. */
    private static void checkLabelRoom(int active) {
        if (active >= MAX_LABELS) {
            throw new dev.luavm.vm.LuaError(LuaString.of("too many labels/gotos (limit is " + MAX_LABELS + ")"));
        }
    }

    private void addLabel(LabelDesc l) {
        checkLabelRoom(activeLabels);
        activeLabels++;
        fs.bl.jumps.addLabel(l);
    }

    private void breakLabel() {
        LabelDesc lb = new LabelDesc("break", fs.pc, 0, fs.nactvar);
        addLabel(lb);
        findGotos(lb);
    }

    /** gotoStat / breakStat, with the jump at {@code pc}. */
    private void gotoStat(String label, int line, int pc) {
        LabelDesc gt = new LabelDesc(label, pc, line, fs.nactvar);
        checkLabelRoom(activeGotos);
        if (!findLabel(gt)) { // else the label is already defined
            activeGotos++;
            fs.bl.jumps.addGoto(gt);
        }
    }

    private void checkRepeated(String label) {
        LabelDesc lb = fs.bl.jumps.label(label);
        if (lb != null) {
            throw semError("label '" + label + "' already defined on line " + lb.line);
        }
    }

    // ------------------------------------------------------------------ statements

    /** block : stat* retStat? -- in a new scope. */
    private void block(BlockContext ctx) {
        enterBlock(new BlockCnt(), false);
        statList(ctx);
        leaveBlock();
    }

    /** The statements of {@code block : stat* retStat?} from index {@code from} on. */
    private void statList(BlockContext ctx) {
        statList(ctx, 0);
    }

    private void statList(BlockContext ctx, int from) {
        List<StatContext> stats = new ArrayList<>();
        RetStatContext ret = null;
        if (ctx.children != null) {
            for (ParseTree c : ctx.children) {
                if (c instanceof StatContext s) stats.add(s);
                else if (c instanceof RetStatContext r) ret = r;
            }
        }
        int n = stats.size();
        for (int i = from; i < n; i++) {
            StatContext s = stats.get(i);
            if (s instanceof LabelStatContext) {
                // PUC parses the no-op statements after a label (';' and labels) inside the
                // label statement; a label followed only by no-ops up to the end of the block
                // is treated as being out of the scope of the block's locals.
                int end = i + 1;
                while (end < n && (stats.get(end) instanceof EmptyStatContext
                    || stats.get(end) instanceof LabelStatContext)) {
                    end++;
                }
                boolean blockEnds = end == n && ret == null && !(ctx.parent instanceof RepeatStatContext);
                List<LabelDesc> made = new ArrayList<>();
                for (int k = i; k < end; k++) {
                    if (stats.get(k) instanceof LabelStatContext ls) {
                        made.add(labelStat(ls));
                    } else {
                        at(((EmptyStatContext) stats.get(k)).SEMI());
                    }
                }
                for (int k = made.size() - 1; k >= 0; k--) {
                    LabelDesc lb = made.get(k);
                    if (blockEnds) lb.nactvar = fs.bl.nactvar;
                    findGotos(lb);
                }
                fs.freereg = fs.nactvar;
                i = end - 1;
                continue;
            }
            statement(s);
        }
        if (ret != null) {
            retStat(ret);
            fs.freereg = fs.nactvar;
        }
    }

    /** labelStat : '::' NAME '::' -- creates the label; its gotos are closed by the caller. */
    private LabelDesc labelStat(LabelStatContext ctx) {
        String label = name(ctx.NAME());
        int line = ctx.DCOLON(0).getSymbol().getLine();
        at(ctx.NAME());
        checkRepeated(label);
        at(ctx.DCOLON(1));
        LabelDesc lb = new LabelDesc(label, fs.getLabel(), line, fs.nactvar);
        addLabel(lb);
        return lb;
    }

    private void statement(StatContext s) {
        account.step();
        int line = first(s).getLine();
        if (s instanceof EmptyStatContext e) {
            at(e.SEMI());
        } else if (s instanceof ExprStatContext e) {
            exprStat(e);
        } else if (s instanceof LocalStatContext l) {
            localStat(l);
        } else if (s instanceof IfStatContext i) {
            ifStat(i, line);
        } else if (s instanceof WhileStatContext w) {
            whileStat(w, line);
        } else if (s instanceof DoStatContext d) {
            at(d.DO());
            block(d.block());
            at(d.END());
        } else if (s instanceof NumericForStatContext f) {
            numericFor(f, line);
        } else if (s instanceof GenericForStatContext f) {
            genericFor(f, line);
        } else if (s instanceof RepeatStatContext r) {
            repeatStat(r, line);
        } else if (s instanceof FunctionStatContext f) {
            funcStat(f, line);
        } else if (s instanceof LocalFunctionStatContext f) {
            localFunc(f);
        } else if (s instanceof GotoStatContext g) {
            int pc = fs.jump(); // coded before the 'goto' is read, as PUC
            at(g.GOTO());
            at(g.NAME());
            gotoStat(name(g.NAME()), line, pc);
        } else if (s instanceof BreakStatContext b) {
            int pc = fs.jump();
            at(b.BREAK());
            gotoStat("break", line, pc);
        } else {
            throw new AssertionError("unexpected statement " + s.getClass());
        }
        assert fs.maxStackSize >= fs.freereg && fs.freereg >= fs.nactvar;
        fs.freereg = fs.nactvar; // free registers
    }

    /** retStat : 'return' expList? ';'? */
    private void retStat(RetStatContext ctx) {
        at(ctx.RETURN());
        int first;
        int nret;
        if (ctx.expList() == null) {
            first = nret = 0;
        } else {
            ExpDesc e = new ExpDesc();
            nret = expList(ctx.expList(), e);
            if (e.hasMultRet()) {
                fs.setMultRet(e);
                if (e.k == Kind.VCALL && nret == 1) { // tail call
                    int i = fs.getInstruction(e);
                    fs.setInstruction(e, Instr.abc(OpCode.TAILCALL, Instr.a(i), Instr.b(i), Instr.c(i)));
                    assert Instr.a(i) == fs.nactvar;
                }
                first = fs.nactvar;
                nret = LUA_MULTRET;
            } else if (nret == 1) {
                first = fs.exp2anyreg(e);
            } else {
                fs.exp2nextreg(e); // values must go to the stack
                first = fs.nactvar;
                assert nret == fs.freereg - first;
            }
        }
        fs.ret(first, nret);
        if (ctx.SEMI() != null) at(ctx.SEMI());
    }

    /** exprStat : suffixedExp assignTail? -- a call, or an assignment. */
    private void exprStat(ExprStatContext ctx) {
        ExpDesc v = new ExpDesc();
        suffixedExp(ctx.suffixedExp(), v);
        AssignTailContext tail = ctx.assignTail();
        if (tail == null) {
            // a call statement uses no results (the checker made sure it is a call)
            fs.setInstruction(v, Instr.setC(fs.getInstruction(v), 1));
            return;
        }
        // assignTail : (',' suffixedExp)* '=' expList
        List<ExpDesc> targets = new ArrayList<>();
        targets.add(v);
        for (ParseTree c : tail.children) {
            if (c instanceof SuffixedExpContext se) {
                ExpDesc nv = new ExpDesc();
                suffixedExp(se, nv);
                if (nv.k != Kind.VINDEXED) checkConflict(targets, nv);
                targets.add(nv);
            } else if (c instanceof TerminalNode tn && tn.getSymbol().getType() == LuaParser.COMMA) {
                at(tn);
            }
        }
        at(tail.ASSIGN());
        int nvars = targets.size();
        ExpDesc e = new ExpDesc();
        int nexps = expList(tail.expList(), e);
        int last = nvars - 1;
        if (nexps != nvars) {
            adjustAssign(nvars, nexps, e);
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

    /**
     * In a multiple assignment, a table or index register of an earlier target that this
     * target (a local or upvalue) overwrites is copied first (PUC's check_conflict).
     */
    private void checkConflict(List<ExpDesc> targets, ExpDesc v) {
        int extra = fs.freereg; // eventual position to save local variable
        boolean conflict = false;
        for (ExpDesc lh : targets) {
            if (lh.k == Kind.VINDEXED) {
                if (lh.indVt == v.k && lh.indT == v.info) {
                    conflict = true;
                    lh.indVt = Kind.VLOCAL;
                    lh.indT = extra;
                }
                if (v.k == Kind.VLOCAL && lh.indIdx == v.info) {
                    conflict = true;
                    lh.indIdx = extra;
                }
            }
        }
        if (conflict) {
            OpCode op = v.k == Kind.VLOCAL ? OpCode.MOVE : OpCode.GETUPVAL;
            fs.codeABC(op, extra, v.info, 0);
            fs.reserveRegs(1);
        }
    }

    private void adjustAssign(int nvars, int nexps, ExpDesc e) {
        int extra = nvars - nexps;
        if (e.hasMultRet()) {
            extra++; // includes call itself
            if (extra < 0) extra = 0;
            fs.setReturns(e, extra);
            if (extra > 1) fs.reserveRegs(extra - 1);
        } else {
            if (e.k != Kind.VVOID) fs.exp2nextreg(e);
            if (extra > 0) {
                int reg = fs.freereg;
                fs.reserveRegs(extra);
                fs.nil(reg, extra);
            }
        }
        if (nexps > nvars) fs.freereg -= nexps - nvars; // remove extra values
    }

    /** localStat : 'local' nameList ('=' expList)? */
    private void localStat(LocalStatContext ctx) {
        at(ctx.LOCAL());
        int nvars = 0;
        for (ParseTree c : ctx.nameList().children) {
            if (c instanceof TerminalNode tn) {
                at(tn);
                if (tn.getSymbol().getType() == LuaParser.NAME) {
                    newLocalVar(name(tn));
                    nvars++;
                }
            }
        }
        ExpDesc e = new ExpDesc();
        int nexps = 0;
        if (ctx.expList() != null) {
            at(ctx.ASSIGN());
            nexps = expList(ctx.expList(), e);
        }
        adjustAssign(nvars, nexps, e);
        adjustLocalVars(nvars);
    }

    /** localFunctionStat : 'local' 'function' NAME funcBody */
    private void localFunc(LocalFunctionStatContext ctx) {
        at(ctx.NAME());
        newLocalVar(name(ctx.NAME()));
        adjustLocalVars(1); // enter its scope
        ExpDesc b = new ExpDesc();
        body(ctx.funcBody(), b, false, first(ctx.funcBody()).getLine());
        // debug information will only see the variable after this point
        getLocVar(fs, b.info).startPc = fs.pc;
    }

    /** functionStat : 'function' funcName funcBody */
    private void funcStat(FunctionStatContext ctx, int line) {
        at(ctx.FUNCTION());
        // funcName : NAME ('.' NAME)* (':' NAME)?
        ExpDesc v = new ExpDesc();
        boolean isMethod = false;
        List<ParseTree> parts = ctx.funcName().children;
        singleVar((TerminalNode) parts.get(0), v);
        for (int i = 1; i + 1 < parts.size(); i += 2) {
            TerminalNode sep = (TerminalNode) parts.get(i);
            TerminalNode key = (TerminalNode) parts.get(i + 1);
            if (sep.getSymbol().getType() == LuaParser.COLON) isMethod = true;
            fieldSel(v, sep, key);
        }
        ExpDesc b = new ExpDesc();
        body(ctx.funcBody(), b, isMethod, line);
        fs.storeVar(v, b);
        fs.fixLine(line); // definition "happens" in the first line
    }

    /** ifStat : 'if' exp 'then' block elseIfPart* elsePart? 'end' */
    private void ifStat(IfStatContext ctx, int line) {
        int escapeList = NO_JUMP;
        List<ElseIfPartContext> elseIfs = ctx.elseIfPart();
        ElsePartContext elsePart = ctx.elsePart(); // each call scans all the children
        boolean more = !elseIfs.isEmpty() || elsePart != null;
        escapeList = testThenBlock(ctx.IF(), ctx.exp(), ctx.block(), escapeList, more);
        for (int i = 0; i < elseIfs.size(); i++) {
            ElseIfPartContext ei = elseIfs.get(i);
            boolean followed = i + 1 < elseIfs.size() || elsePart != null;
            escapeList = testThenBlock(ei.ELSEIF(), ei.exp(), ei.block(), escapeList, followed);
        }
        if (elsePart != null) {
            at(elsePart.ELSE());
            block(elsePart.block());
        }
        at(ctx.END());
        fs.patchToHere(escapeList);
    }

    /** [IF | ELSEIF] cond THEN block; returns the escape list. */
    private int testThenBlock(TerminalNode kw, ExpContext cond, BlockContext blk, int escapeList,
                              boolean followed) {
        at(kw);
        ExpDesc v = new ExpDesc();
        expr(cond, v);
        at((TerminalNode) blk.getParent().getChild(blk.getParent().children.indexOf(blk) - 1)); // 'then'
        BlockCnt bl = new BlockCnt();
        int jf;
        StatContext firstStat = blk.stat().isEmpty() ? null : blk.stat(0);
        if (firstStat instanceof GotoStatContext || firstStat instanceof BreakStatContext) {
            fs.goIfFalse(v); // will jump to label if condition is true
            enterBlock(bl, false);
            int line = first(firstStat).getLine();
            if (firstStat instanceof GotoStatContext g) {
                at(g.GOTO());
                at(g.NAME());
                gotoStat(name(g.NAME()), line, v.t);
            } else {
                at(((BreakStatContext) firstStat).BREAK());
                gotoStat("break", line, v.t);
            }
            int next = 1;
            List<StatContext> stats = blk.stat();
            while (next < stats.size() && stats.get(next) instanceof EmptyStatContext es) {
                at(es.SEMI()); // skip semicolons
                next++;
            }
            if (next == stats.size() && blk.retStat() == null) { // 'goto' is the entire block
                leaveBlock();
                return escapeList;
            }
            jf = fs.jump(); // must skip over 'then' part if condition is false
            statList(blk, next);
        } else {
            fs.goIfTrue(v); // skip over block if condition is false
            enterBlock(bl, false);
            jf = v.f;
            statList(blk);
        }
        leaveBlock();
        if (followed) escapeList = fs.concat(escapeList, fs.jump()); // must jump over it
        fs.patchToHere(jf);
        return escapeList;
    }

    /** cond : exp -- returns its false exit list. */
    private int cond(ExpContext ctx) {
        ExpDesc v = new ExpDesc();
        expr(ctx, v);
        if (v.k == Kind.VNIL) v.k = Kind.VFALSE; // 'falses' are all equal here
        fs.goIfTrue(v);
        return v.f;
    }

    /** whileStat : 'while' exp 'do' block 'end' */
    private void whileStat(WhileStatContext ctx, int line) {
        at(ctx.WHILE());
        int whileInit = fs.getLabel();
        int condExit = cond(ctx.exp());
        BlockCnt bl = new BlockCnt();
        enterBlock(bl, true);
        at(ctx.DO());
        block(ctx.block());
        fs.patchList(fs.jump(), whileInit);
        at(ctx.END());
        leaveBlock();
        fs.patchToHere(condExit); // false conditions finish the loop
    }

    /** repeatStat : 'repeat' block 'until' exp -- the condition sees the body's locals. */
    private void repeatStat(RepeatStatContext ctx, int line) {
        int repeatInit = fs.getLabel();
        BlockCnt bl1 = new BlockCnt();
        BlockCnt bl2 = new BlockCnt();
        enterBlock(bl1, true); // loop block
        enterBlock(bl2, false); // scope block
        at(ctx.REPEAT());
        statList(ctx.block());
        at(ctx.UNTIL());
        int condExit = cond(ctx.exp());
        if (bl2.upval) fs.patchClose(condExit, bl2.nactvar);
        leaveBlock(); // finish scope
        fs.patchList(condExit, repeatInit); // close the loop
        leaveBlock(); // finish loop
    }

    /** exp1 of a for header: one value in the next register. */
    private void exp1(ExpContext ctx) {
        ExpDesc e = new ExpDesc();
        expr(ctx, e);
        fs.exp2nextreg(e);
    }

    /** numericForStat : 'for' NAME '=' exp ',' exp (',' exp)? 'do' block 'end' */
    private void numericFor(NumericForStatContext ctx, int line) {
        BlockCnt bl = new BlockCnt();
        enterBlock(bl, true); // scope for loop and control variables
        at(ctx.FOR());
        at(ctx.NAME());
        int base = fs.freereg;
        newLocalVar("(for index)");
        newLocalVar("(for limit)");
        newLocalVar("(for step)");
        newLocalVar(name(ctx.NAME()));
        at(ctx.ASSIGN());
        List<ExpContext> exps = ctx.exp();
        exp1(exps.get(0));
        at(ctx.COMMA(0));
        exp1(exps.get(1));
        if (exps.size() > 2) {
            at(ctx.COMMA(1));
            exp1(exps.get(2));
        } else { // default step = 1
            fs.codeK(fs.freereg, fs.intK(1));
            fs.reserveRegs(1);
        }
        forBody(ctx.DO(), ctx.block(), base, line, 1, true);
        at(ctx.END());
        leaveBlock(); // loop scope ('break' jumps to this point)
    }

    /** genericForStat : 'for' nameList 'in' expList 'do' block 'end' */
    private void genericFor(GenericForStatContext ctx, int line) {
        BlockCnt bl = new BlockCnt();
        enterBlock(bl, true);
        at(ctx.FOR());
        int base = fs.freereg;
        newLocalVar("(for generator)");
        newLocalVar("(for state)");
        newLocalVar("(for control)");
        int nvars = 3;
        for (ParseTree c : ctx.nameList().children) {
            TerminalNode tn = (TerminalNode) c;
            at(tn);
            if (tn.getSymbol().getType() == LuaParser.NAME) {
                newLocalVar(name(tn));
                nvars++;
            }
        }
        at(ctx.IN());
        int exprLine = first(ctx.expList()).getLine();
        ExpDesc e = new ExpDesc();
        adjustAssign(3, expList(ctx.expList(), e), e);
        fs.checkStack(3); // extra space to call generator
        forBody(ctx.DO(), ctx.block(), base, exprLine, nvars - 3, false);
        at(ctx.END());
        leaveBlock();
    }

    /** forbody : 'do' block -- FORPREP/FORLOOP or JMP/TFORCALL/TFORLOOP around the body. */
    private void forBody(TerminalNode doTok, BlockContext blk, int base, int line, int nvars, boolean isNum) {
        adjustLocalVars(3); // control variables
        at(doTok);
        int prep = isNum ? fs.codeAsBx(OpCode.FORPREP, base, NO_JUMP) : fs.jump();
        BlockCnt bl = new BlockCnt();
        enterBlock(bl, false); // scope for declared variables
        adjustLocalVars(nvars);
        fs.reserveRegs(nvars);
        block(blk);
        leaveBlock();
        fs.patchToHere(prep);
        int endFor;
        if (isNum) {
            endFor = fs.codeAsBx(OpCode.FORLOOP, base, NO_JUMP);
        } else {
            fs.codeABC(OpCode.TFORCALL, base, 0, nvars);
            fs.fixLine(line);
            endFor = fs.codeAsBx(OpCode.TFORLOOP, base + 2, NO_JUMP);
        }
        fs.patchList(endFor, prep + 1);
        fs.fixLine(line);
    }

    // ------------------------------------------------------------------ expressions

    /** expList : exp (',' exp)* -- all but the last value go to registers; returns the count. */
    private int expList(ExpListContext ctx, ExpDesc v) {
        int n = 0;
        for (ParseTree c : ctx.children) {
            if (c instanceof ExpContext e) {
                if (n > 0) fs.exp2nextreg(v);
                v.init(Kind.VVOID, 0);
                expr(e, v);
                n++;
            } else {
                at((TerminalNode) c);
            }
        }
        return n;
    }

    /** exp : orExp */
    private void expr(ExpContext ctx, ExpDesc v) {
        subExpr(ctx.orExp(), v);
    }

    /**
     * One precedence level: orExp, andExp, cmpExp, borExp, bxorExp, bandExp, shiftExp,
     * concatExp, addExp, mulExp, unaryExp or powExp. Levels with a single operand are passed
     * through by a loop, not by recursion.
     */
    private void subExpr(ParserRuleContext ctx, ExpDesc v) {
        account.step();
        while (!(ctx instanceof UnaryExpContext) && !(ctx instanceof PowExpContext)
            && ctx.getChildCount() == 1) {
            ctx = (ParserRuleContext) ctx.getChild(0);
        }
        if (ctx instanceof UnaryExpContext u) {
            unaryExp(u, v);
        } else if (ctx instanceof PowExpContext p) {
            powExp(p, v);
        } else if (ctx instanceof ConcatExpContext c) {
            rightAssoc(c, v);
        } else {
            leftAssoc(ctx, v);
        }
    }

    /** The operator token of child {@code c}: a terminal, or the one token of an xxxOp rule. */
    private static Token opToken(ParseTree c) {
        if (c instanceof TerminalNode tn) return tn.getSymbol();
        return ((ParserRuleContext) c).getStart();
    }

    private static BinOpr binOpr(int type) {
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

    /** A left-associative level: operand (op operand)*, folded from the left. */
    private void leftAssoc(ParserRuleContext ctx, ExpDesc v) {
        List<ParseTree> ch = ctx.children;
        subExpr((ParserRuleContext) ch.get(0), v);
        for (int i = 1; i + 1 < ch.size(); i += 2) {
            Token op = opToken(ch.get(i));
            BinOpr opr = binOpr(op.getType());
            int line = op.getLine();
            at(op);
            fs.infix(opr, v);
            ExpDesc v2 = new ExpDesc();
            subExpr((ParserRuleContext) ch.get(i + 1), v2);
            fs.posfix(opr, v, v2, line);
        }
    }

    /** concatExp : addExp ('..' addExp)* -- right associative: a .. (b .. c). */
    private void rightAssoc(ConcatExpContext ctx, ExpDesc v) {
        List<ParseTree> ch = ctx.children;
        List<ExpDesc> pending = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        subExpr((ParserRuleContext) ch.get(0), v);
        ExpDesc cur = v;
        for (int i = 1; i + 1 < ch.size(); i += 2) {
            Token op = opToken(ch.get(i));
            at(op);
            fs.infix(BinOpr.CONCAT, cur);
            pending.add(cur);
            lines.add(op.getLine());
            cur = new ExpDesc();
            subExpr((ParserRuleContext) ch.get(i + 1), cur);
        }
        for (int k = pending.size() - 1; k >= 0; k--) {
            ExpDesc left = pending.get(k);
            fs.posfix(BinOpr.CONCAT, left, cur, lines.get(k));
            cur = left;
        }
    }

    private static UnOpr unOpr(int type) {
        switch (type) {
            case LuaParser.NOT: return UnOpr.NOT;
            case LuaParser.MINUS: return UnOpr.MINUS;
            case LuaParser.TILDE: return UnOpr.BNOT;
            default: return UnOpr.LEN;
        }
    }

    /** unaryExp : unaryOp* powExp -- operators apply innermost first. */
    private void unaryExp(UnaryExpContext ctx, ExpDesc v) {
        List<ParseTree> ch = ctx.children;
        int nops = ch.size() - 1;
        for (int i = 0; i < nops; i++) at(opToken(ch.get(i)));
        powExp((PowExpContext) ch.get(nops), v);
        for (int i = nops - 1; i >= 0; i--) {
            Token op = opToken(ch.get(i));
            fs.prefix(unOpr(op.getType()), v, op.getLine());
        }
    }

    /**
     * powExp : simpleExp powTail* ; powTail : '^' unaryOp* simpleExp -- right associative, and
     * each right operand may carry unary operators: a ^ -b ^ c is a ^ (-(b ^ c)).
     */
    private void powExp(PowExpContext ctx, ExpDesc v) {
        List<ParseTree> ch = ctx.children;
        simpleExp((SimpleExpContext) ch.get(0), v);
        if (ch.size() == 1) return;
        List<ExpDesc> pending = new ArrayList<>();
        List<PowTailContext> tails = new ArrayList<>();
        ExpDesc cur = v;
        for (int i = 1; i < ch.size(); i++) {
            PowTailContext tail = (PowTailContext) ch.get(i);
            at(tail.CARET());
            fs.infix(BinOpr.POW, cur);
            pending.add(cur);
            tails.add(tail);
            List<ParseTree> tc = tail.children;
            for (int k = 1; k < tc.size() - 1; k++) at(opToken(tc.get(k)));
            cur = new ExpDesc();
            simpleExp((SimpleExpContext) tc.get(tc.size() - 1), cur);
        }
        for (int k = pending.size() - 1; k >= 0; k--) {
            PowTailContext tail = tails.get(k);
            List<ParseTree> tc = tail.children;
            for (int u = tc.size() - 2; u >= 1; u--) {
                Token op = opToken(tc.get(u));
                fs.prefix(unOpr(op.getType()), cur, op.getLine());
            }
            ExpDesc left = pending.get(k);
            fs.posfix(BinOpr.POW, left, cur, tail.CARET().getSymbol().getLine());
            cur = left;
        }
    }

    /** simpleExp : nil | false | true | INT | FLOAT | STRING | '...' | function | table | suffixedExp */
    private void simpleExp(SimpleExpContext ctx, ExpDesc v) {
        if (ctx instanceof SuffixedSimpleExpContext s) {
            suffixedExp(s.suffixedExp(), v);
        } else if (ctx instanceof IntExpContext i) {
            v.init(Kind.VKINT, 0);
            v.ival = (Long) ((LuaToken) i.INT().getSymbol()).value;
            at(i.INT());
        } else if (ctx instanceof FloatExpContext f) {
            v.init(Kind.VKFLT, 0);
            v.nval = (Double) ((LuaToken) f.FLOAT().getSymbol()).value;
            at(f.FLOAT());
        } else if (ctx instanceof StringExpContext s) {
            v.init(Kind.VK, fs.stringK((LuaString) ((LuaToken) s.STRING().getSymbol()).value));
            at(s.STRING());
        } else if (ctx instanceof NilExpContext n) {
            v.init(Kind.VNIL, 0);
            at(n.NIL());
        } else if (ctx instanceof TrueExpContext t) {
            v.init(Kind.VTRUE, 0);
            at(t.TRUE());
        } else if (ctx instanceof FalseExpContext f) {
            v.init(Kind.VFALSE, 0);
            at(f.FALSE());
        } else if (ctx instanceof VarargExpContext va) {
            v.init(Kind.VVARARG, fs.codeABC(OpCode.VARARG, 0, 1, 0));
            at(va.ELLIPSIS());
        } else if (ctx instanceof TableExpContext t) {
            constructor(t.tableConstructor(), v);
        } else if (ctx instanceof FunctionExpContext f) {
            at(f.FUNCTION());
            body(f.funcBody(), v, false, first(f.funcBody()).getLine());
        } else {
            throw new AssertionError(ctx.getClass());
        }
    }

    /** primaryExp : NAME | '(' exp ')' */
    private void primaryExp(PrimaryExpContext ctx, ExpDesc v) {
        if (ctx instanceof NameExpContext n) {
            singleVar(n.NAME(), v);
        } else {
            ParenExpContext p = (ParenExpContext) ctx;
            at(p.LPAREN());
            expr(p.exp(), v);
            at(p.RPAREN());
            fs.dischargeVars(v);
        }
    }

    /** suffixedExp : primaryExp suffix* ; suffix : '.' NAME | '[' exp ']' | ':' NAME args | args */
    private void suffixedExp(SuffixedExpContext ctx, ExpDesc v) {
        int line = first(ctx).getLine();
        List<ParseTree> ch = ctx.children;
        primaryExp((PrimaryExpContext) ch.get(0), v);
        for (int i = 1; i < ch.size(); i++) {
            account.step();
            ParseTree s = ch.get(i);
            if (s instanceof FieldSuffixContext f) {
                fieldSel(v, f.DOT(), f.NAME());
            } else if (s instanceof IndexSuffixContext ix) {
                fs.exp2anyregup(v);
                ExpDesc key = new ExpDesc();
                yindex(ix.LBRACKET(), ix.exp(), ix.RBRACKET(), key);
                fs.indexed(v, key);
            } else if (s instanceof MethodSuffixContext m) {
                at(m.COLON());
                at(m.NAME());
                ExpDesc key = stringConstant(name(m.NAME()));
                fs.self(v, key);
                funcArgs(m.args(), v, line);
            } else {
                fs.exp2nextreg(v);
                funcArgs(((CallSuffixContext) s).args(), v, line);
            }
        }
    }

    /** fieldsel : ['.' | ':'] NAME */
    private void fieldSel(ExpDesc v, TerminalNode sep, TerminalNode key) {
        fs.exp2anyregup(v);
        at(sep);
        at(key);
        fs.indexed(v, stringConstant(name(key)));
    }

    /** index : '[' exp ']' */
    private void yindex(TerminalNode open, ExpContext e, TerminalNode close, ExpDesc v) {
        at(open);
        expr(e, v);
        fs.exp2val(v);
        at(close);
    }

    /** args : '(' expList? ')' | tableConstructor | STRING -- codes the CALL. */
    private void funcArgs(ArgsContext ctx, ExpDesc f, int line) {
        ExpDesc args = new ExpDesc();
        if (ctx instanceof ListArgsContext l) {
            at(l.LPAREN());
            if (l.expList() == null) {
                args.k = Kind.VVOID;
            } else {
                expList(l.expList(), args);
                fs.setMultRet(args);
            }
            at(l.RPAREN());
        } else if (ctx instanceof TableArgsContext t) {
            constructor(t.tableConstructor(), args);
        } else {
            TerminalNode s = ((StringArgsContext) ctx).STRING();
            args.init(Kind.VK, fs.stringK((LuaString) ((LuaToken) s.getSymbol()).value));
            at(s);
        }
        assert f.k == Kind.VNONRELOC;
        int base = f.info; // base register for call
        int nparams;
        if (args.hasMultRet()) {
            nparams = LUA_MULTRET; // open call
        } else {
            if (args.k != Kind.VVOID) fs.exp2nextreg(args); // close last argument
            nparams = fs.freereg - (base + 1);
        }
        f.init(Kind.VCALL, fs.codeABC(OpCode.CALL, base, nparams + 1, 2));
        fs.fixLine(line);
        fs.freereg = base + 1; // the call leaves (unless changed) one result
    }

    // ------------------------------------------------------------------ table constructors

    /** Table constructor state (PUC's ConsControl). */
    private static final class ConsControl {
        final ExpDesc v = new ExpDesc(); // last list item read
        ExpDesc t; // table descriptor
        int nh; // total number of 'record' elements
        int na; // total number of array elements
        int tostore; // number of array elements pending to be stored
    }

    /** tableConstructor : '{' fieldList? '}' ; fieldList : field (fieldSep field)* fieldSep? */
    private void constructor(TableConstructorContext ctx, ExpDesc t) {
        int pc = fs.codeABC(OpCode.NEWTABLE, 0, 0, 0);
        ConsControl cc = new ConsControl();
        cc.t = t;
        t.init(Kind.VRELOCABLE, pc);
        fs.exp2nextreg(t); // fix it at stack top
        at(ctx.LBRACE());
        if (ctx.fieldList() != null) {
            for (ParseTree c : ctx.fieldList().children) {
                if (c instanceof FieldSepContext sep) {
                    at(sep.getStart());
                    continue;
                }
                closeListField(cc);
                field((FieldContext) c, cc);
            }
        }
        at(ctx.RBRACE());
        lastListField(cc);
        int i = fs.code[pc];
        i = Instr.setB(i, int2fb(cc.na)); // initial array size
        fs.code[pc] = Instr.setC(i, int2fb(cc.nh)); // initial hash size
    }

    private void closeListField(ConsControl cc) {
        if (cc.v.k == Kind.VVOID) return; // there is no list item
        fs.exp2nextreg(cc.v);
        cc.v.k = Kind.VVOID;
        if (cc.tostore == OpCode.FIELDS_PER_FLUSH) {
            fs.setList(cc.t.info, cc.na, cc.tostore); // flush
            cc.tostore = 0;
        }
    }

    private void lastListField(ConsControl cc) {
        if (cc.tostore == 0) return;
        if (cc.v.hasMultRet()) {
            fs.setMultRet(cc.v);
            fs.setList(cc.t.info, cc.na, LUA_MULTRET);
            cc.na--; // do not count last expression (unknown number of elements)
        } else {
            if (cc.v.k != Kind.VVOID) fs.exp2nextreg(cc.v);
            fs.setList(cc.t.info, cc.na, cc.tostore);
        }
    }

    /** field : '[' exp ']' '=' exp | NAME '=' exp | exp */
    private void field(FieldContext ctx, ConsControl cc) {
        if (ctx instanceof PositionalFieldContext p) {
            // listfield
            cc.v.init(Kind.VVOID, 0);
            expr(p.exp(), cc.v);
            cc.na++;
            cc.tostore++;
            return;
        }
        // recfield
        int reg = fs.freereg;
        ExpDesc key = new ExpDesc();
        ExpDesc val = new ExpDesc();
        if (ctx instanceof NamedFieldContext n) {
            at(n.NAME());
            key = stringConstant(name(n.NAME()));
            at(n.ASSIGN());
            cc.nh++;
            int rkKey = fs.exp2RK(key);
            expr(n.exp(), val);
            fs.codeABC(OpCode.SETTABLE, cc.t.info, rkKey, fs.exp2RK(val));
        } else {
            KeyedFieldContext k = (KeyedFieldContext) ctx;
            yindex(k.LBRACKET(), k.exp(0), k.RBRACKET(), key);
            cc.nh++;
            at(k.ASSIGN());
            int rkKey = fs.exp2RK(key);
            expr(k.exp(1), val);
            fs.codeABC(OpCode.SETTABLE, cc.t.info, rkKey, fs.exp2RK(val));
        }
        fs.freereg = reg; // free registers
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
